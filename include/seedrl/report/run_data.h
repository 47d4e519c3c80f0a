// One training run as its --logdir holds it, read for `seedrl report`:
// metrics.jsonl's lines as columns, config.toml and summary.json as tables.
// Every file is untrusted: sizes are capped, and a file that cannot be read
// is refused with one line naming it (and its line, for metrics.jsonl).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace seedrl::report {

// Rows of a table: key and value as text, in key order.
using Table = std::vector<std::pair<std::string, std::string>>;

struct RunData {
  std::string logdir;  // as given
  // One entry per metrics line kept, frames strictly increasing: after a
  // resume, which rewinds to the checkpoint, the lines the resumed process
  // wrote supersede the earlier ones past that point.
  std::vector<double> frames;
  // Every other key's values, one per entry of `frames`; NaN where its line
  // had null or no number, or lacked the key. "wall_seconds" is the run's
  // time over all its processes (each process counts from its own start).
  std::map<std::string, std::vector<double>> metrics;

  bool has_config = false;
  Table config;  // config.toml
  // config.toml without its seed and logdir keys ('_' read as '-'), as
  // canonical text: equal for runs that differ only in their seed.
  std::string config_identity;
  std::string seed;  // config.toml's seed as text; "" when it has none
  Table summary;     // summary.json, nested keys flattened; empty without one

  // The values of `key`, or none.
  const std::vector<double>* metric(const std::string& key) const;
};

// Throws std::invalid_argument (one line naming the logdir, or the file and
// line at fault) when `logdir` is no run directory or a file in it is
// malformed. metrics.jsonl may still be being written: an unfinished last
// line (no newline) that does not parse is left out.
RunData load_run(const std::string& logdir);

}  // namespace seedrl::report
