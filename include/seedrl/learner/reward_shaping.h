// Rewards as every learner trains on them: clamped to [-clip, clip] when
// clip > 0, then multiplied by scale (--reward-clip, --reward-scale).
#pragma once

#include <algorithm>

#include <torch/types.h>

namespace seedrl {

// One reward, as the learners that loop over plain numbers shape it.
inline double shape_reward(double reward, double clip, double scale) {
  return (clip > 0 ? std::clamp(reward, -clip, clip) : reward) * scale;
}

torch::Tensor shape_rewards(const torch::Tensor& rewards, double clip, double scale);

}  // namespace seedrl
