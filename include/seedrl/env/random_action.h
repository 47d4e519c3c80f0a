// A uniform random action, as the random policy, the env bench and the
// env-cost probe take it.
#pragma once

#include "seedrl/env/env.h"
#include "seedrl/util/rng.h"

namespace seedrl {

// Writes spec.width() floats into `values` (a discrete action: its index)
// and returns the Action that points at them.
Action sample_random_action(const ActionSpec& spec, Rng& rng, float* values);

}  // namespace seedrl
