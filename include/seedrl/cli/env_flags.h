// The environment flags shared by every command that builds environments
// (train, play, actor): sticky actions, difficulty ramping, Atari's
// preprocessing and ROM directory, and the wrappers.
#pragma once

#include <CLI/CLI.hpp>

#include "seedrl/env/registry.h"

namespace seedrl {

void add_env_option_flags(CLI::App& command, EnvOptions& options);

}  // namespace seedrl
