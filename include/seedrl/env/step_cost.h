// How long one step of an environment takes on this machine: a quick probe
// at start-up that tells a cheap env (a few hundred ns: the learner is the
// heavy stage) from an expensive one (MuJoCo: tens of us per step).
#pragma once

#include <cstdint>

#include "seedrl/env/env.h"

namespace seedrl {

// Mean wall time of one step of `env` with uniform random actions, resets
// included, over `max_steps` steps or `max_seconds`, whichever ends first
// (at least one step). Leaves `env` mid-episode.
double measure_step_ns(Env& env, std::uint64_t seed, int max_steps = 4096, double max_seconds = 0.02);

}  // namespace seedrl
