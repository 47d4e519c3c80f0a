// How long one step of an environment takes on this machine: a quick probe
// at start-up that tells a cheap env (a few hundred ns: the learner is the
// heavy stage) from an expensive one (MuJoCo: tens of us per step).
#pragma once

#include <cstdint>

#include "seedrl/env/env.h"

namespace seedrl {

// Mean time of one step of `env` with uniform random actions, resets
// included, over `max_steps` steps or `max_seconds`, whichever ends first
// (at least one step). The time is the calling thread's CPU time, and so is
// the budget once `max_seconds` of wall time have passed: on a loaded machine
// waiting for a CPU neither counts as step time nor cuts the probe short.
// Leaves `env` mid-episode.
double measure_step_ns(Env& env, std::uint64_t seed, int max_steps = 4096, double max_seconds = 0.02);

}  // namespace seedrl
