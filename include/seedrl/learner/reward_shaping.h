// Rewards as every learner trains on them: clamped to [-clip, clip] when
// clip > 0, then multiplied by scale (--reward-clip, --reward-scale).
#pragma once

#include <torch/types.h>

namespace seedrl {

torch::Tensor shape_rewards(const torch::Tensor& rewards, double clip, double scale);

}  // namespace seedrl
