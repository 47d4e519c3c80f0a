// `--config FILE`: a TOML file (read by toml++) whose keys are a command's
// flag names (`max-frames = 2000000`, `hidden = [64, 64]`; `max_frames` works
// too; so does a renamed flag's old name, after a warning: renamed_flags.h).
// Flags given on the command line win over the file. CLI11 2.1 reads
// config files for the top-level app only, so commands apply theirs here,
// after parsing, with the same validators as the flags.
//
// Each value must have the TOML type of its flag: an integer for an integer
// flag (not 4.0, not "4"), an integer or a finite float for a float flag
// ("auto" too where that is its default: --target-entropy), true or false
// for a switch, a string (UTF-8, no control characters) for a text flag, a
// list of such for --hidden. A flag set twice, by two names (a switch's
// negation, a renamed flag's old name), is refused. Every error is one line:
//   run.toml:3: --actors: expected an integer, got a string "abc"
#pragma once

#include <set>
#include <string>

namespace CLI {
class App;
}

namespace seedrl {

// Throws std::invalid_argument naming the file, its line and the key at fault.
void apply_config_file(CLI::App& command, const std::string& path);

// The keys of `path` that name one of `flags` ("--env"), applied as
// apply_config_file does; every other key is ignored unchecked, as another
// command's: `seedrl actor --config` reads the learner's file for its env.
void apply_config_file_subset(CLI::App& command, const std::string& path, const std::set<std::string>& flags);

// The settings `command` was given (on its command line and, once
// apply_config_file has run, from its file) as a TOML config file that
// --config reads back: `max-frames = 2000000`. --config, --resume and
// --help are left out; flags left at their defaults too, so that a default
// that depends on the env (cartpole's reward scale) stays one.
std::string given_settings_toml(const CLI::App& command);

// Whether `flag` ("--entropy-cost") got a value from the command line or, once
// apply_config_file has run, from the file. A flag `command` lacks counts as
// not given, so defaults shared by several commands can skip the check.
bool flag_given(const CLI::App& command, const std::string& flag);
// The long names ("--entropy-cost") of every flag flag_given counts so far.
std::set<std::string> given_flags(const CLI::App& command);

}  // namespace seedrl
