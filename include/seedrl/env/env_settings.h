// The settings that make an env the MDP it is (the game, its frame skip,
// stickiness, time limit, rewards, ...), as the flags that set them: what a
// remote actor's env must share with its learner's, which the observation
// and action specs alone do not tell apart (every Atari game has the same
// spec). Paths (ROMs, Football data) belong to a machine and are left out.
#pragma once

#include <string>

#include "seedrl/env/registry.h"

namespace seedrl {

// "--env NAME --flag value ..." with family defaults resolved (MinAtar's
// sticky 0.1, the frame stack the env gets), each flag once, in a fixed order:
// equal strings for equal envs.
std::string env_settings(const std::string& env, const EnvOptions& options);

// "" when `peer` (another process's env_settings, untrusted) says the same as
// `ours`; else the first difference in one line, "--time-limit 10 differs from
// the learner's 0", or what `peer` lacks or adds. `whose`: "the learner's".
std::string env_settings_mismatch(const std::string& peer, const std::string& ours, const std::string& whose);

}  // namespace seedrl
