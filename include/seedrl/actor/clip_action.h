// Continuous policies sample unbounded actions; environments get them
// clipped to the action box. Shared by the actors and evaluation.
#pragma once

#include <algorithm>

#include "seedrl/env/spec.h"

namespace seedrl {

// Clamps `values` (action.dim floats) into [low, high] in place.
inline void clip_to_box(const ActionSpec& action, float* values) {
  for (int i = 0; i < action.dim; ++i) values[i] = std::clamp(values[i], action.low[i], action.high[i]);
}

}  // namespace seedrl
