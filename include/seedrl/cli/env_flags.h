// The environment flags shared by every command that builds environments
// (train, play, actor): sticky actions, difficulty ramping, Atari's
// preprocessing and ROM directory, and the wrappers.
#pragma once

#include <set>
#include <string>

#include <CLI/CLI.hpp>

#include "seedrl/env/registry.h"

namespace seedrl {

void add_env_option_flags(CLI::App& command, EnvOptions& options);

// The subset that describes this machine or the scoring rather than the
// environment a policy was trained on: --rom-dir, --accept-unknown-rom,
// --football-rewards, --football-data-dir, --football-font. A command that
// plays a checkpoint (eval, play) takes these and nothing else.
void add_machine_env_flags(CLI::App& command, EnvOptions& options);
const std::set<std::string>& machine_env_flag_names();

// Throws std::invalid_argument naming the first family flag `command` was
// given (on its command line or from its config file) that `env` would
// ignore: Atari's preprocessing for cartpole, --football-obs or
// --football-rewards for MinAtar, ... The machine's paths (--rom-dir,
// --football-data-dir, ...) are not checked: scripts pass them to every run.
void check_env_family_flags(const CLI::App& command, const std::string& env);

// A checkpoint's environment options with this machine's paths, and the
// Football reward where `command` was given --football-rewards.
EnvOptions with_machine_env_options(EnvOptions run, const EnvOptions& machine, const CLI::App& command);

}  // namespace seedrl
