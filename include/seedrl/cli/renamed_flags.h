// Renamed flags keep their old names as hidden, deprecated aliases, so that a
// command line, script or config file written for an older build still runs
// (after a warning). The old names never reach CLI11, so --help lists only the
// current ones: the command line is rewritten to the current names before it
// is parsed, config keys are looked up by their current names, and errors
// about a flag given by its old name name it as it was typed.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace seedrl {

// The current name of `flag` ("--learner-cores" -> "--learner-cpus"); any
// other name unchanged.
std::string current_flag_name(const std::string& flag);

// `message` with each whole occurrence of the flag name `current` replaced
// by `typed` ("--learner-cpus" but not "--learner-cpus-x").
std::string with_flag_as_typed(std::string message, const std::string& current, const std::string& typed);

// The one-line warning for a flag given by its old name.
std::string renamed_flag_warning(const std::string& typed, const std::string& current);

// A command line (argv) with old flag names, alone or as "--old=value",
// replaced by their current ones; everything after "--" is left as it is.
class CurrentFlagNames {
 public:
  CurrentFlagNames(int argc, const char* const* argv);
  CurrentFlagNames(const CurrentFlagNames&) = delete;
  CurrentFlagNames& operator=(const CurrentFlagNames&) = delete;

  int argc() const { return static_cast<int>(args_.size()); }
  const char* const* argv() const { return pointers_.data(); }
  // (as typed, current) for each old name the command line used.
  const std::vector<std::pair<std::string, std::string>>& renamed() const { return renamed_; }
  // `message` naming each renamed flag as the command line typed it.
  std::string as_typed(std::string message) const;

 private:
  std::vector<std::string> args_;
  std::vector<const char*> pointers_;
  std::vector<std::pair<std::string, std::string>> renamed_;
};

}  // namespace seedrl
