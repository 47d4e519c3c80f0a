#include "seedrl/model/squashed_gaussian.h"

#include <cmath>

#include <torch/torch.h>

namespace seedrl::sac {

torch::Tensor log_one_minus_tanh_squared(const torch::Tensor& u) {
  return 2.0 * (std::log(2.0) - u - torch::nn::functional::softplus(-2.0 * u));
}

SquashedSample squashed_sample(const torch::Tensor& mean, const torch::Tensor& log_std, const torch::Tensor& noise) {
  const torch::Tensor clamped = log_std.clamp(kMinLogStd, kMaxLogStd);
  const torch::Tensor u = mean + clamped.exp() * noise;
  // log N(u; mean, std) with (u - mean) / std = noise.
  const torch::Tensor gaussian = -0.5 * noise.pow(2) - clamped - 0.5 * std::log(2.0 * M_PI);
  const torch::Tensor log_prob = (gaussian - log_one_minus_tanh_squared(u)).sum(-1);
  return {torch::tanh(u), log_prob};
}

torch::Tensor squashed_mode(const torch::Tensor& mean) { return torch::tanh(mean); }

torch::Tensor to_box(const torch::Tensor& squashed, const torch::Tensor& low, const torch::Tensor& high) {
  return low + (squashed + 1.0) * 0.5 * (high - low);
}

torch::Tensor from_box(const torch::Tensor& action, const torch::Tensor& low, const torch::Tensor& high) {
  return (action - low) * 2.0 / (high - low) - 1.0;
}

}  // namespace seedrl::sac
