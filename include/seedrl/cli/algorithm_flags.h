// Which learning algorithms read each of train's algorithm-specific flags.
// Given to an algorithm that does not read it (`--algo r2d2 --entropy-cost
// 0.1`, `--tau` without `--algo sac`), a flag would change nothing and the
// user would not know; train refuses it in one line instead. Flags every
// algorithm reads (the env, the pipeline, --learning-rate, --discount,
// --batch-size) are not listed.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace seedrl {

enum AlgorithmBit : unsigned { kVTrace = 1, kR2D2 = 2, kSac = 4 };

struct AlgorithmFlag {
  const char* flag;  // the long name, as --help lists it first
  unsigned algorithms;
  const char* instead = nullptr;  // what the others offer in its place, if anything
};

// The table, in --help's order.
const std::vector<AlgorithmFlag>& algorithm_flags();

// "V-trace", "R2D2 and SAC", ... as errors and help name them.
std::string algorithm_names(unsigned algorithms);

// Throws std::invalid_argument naming the first listed flag that `command`
// was given and `algo` does not read. Only the flags in `typed` (given on
// the command line) and, when `config_file` is not empty, those set by that
// file count; a resumed run's own saved settings were checked when it began.
void check_algorithm_flags(const CLI::App& command, std::string_view algo, const std::set<std::string>& typed,
                           const std::string& config_file);

}  // namespace seedrl
