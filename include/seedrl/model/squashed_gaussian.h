// Soft actor-critic's policy (Haarnoja et al. 2018, appendix C): a diagonal
// Gaussian in an unbounded space, squashed by tanh into (-1, 1)^dim, which the
// env's action box is an affine image of. The log-probability of a squashed
// action carries tanh's Jacobian:
//   log pi(a|s) = sum_i [ log N(u_i; mean_i, std_i) - log(1 - tanh(u_i)^2) ],
// with log(1 - tanh(u)^2) = 2 (log 2 - u - softplus(-2u)), which stays finite
// where tanh(u) rounds to +-1.
#pragma once

#include <torch/types.h>

namespace seedrl::sac {

// The bounds the policy's log-std is clamped to (SAC's usual [-20, 2]).
inline constexpr double kMinLogStd = -20.0;
inline constexpr double kMaxLogStd = 2.0;

struct SquashedSample {
  torch::Tensor action;    // [..., dim], in (-1, 1)
  torch::Tensor log_prob;  // [...]
};

// A reparameterised sample: u = mean + std * noise, action = tanh(u); the
// gradient flows to mean and log_std through it. `noise` is standard normal,
// of mean's shape (drawn by the caller, so a test or a seeded stream can fix it).
SquashedSample squashed_sample(const torch::Tensor& mean, const torch::Tensor& log_std, const torch::Tensor& noise);

// log(1 - tanh(u)^2), stable for any u.
torch::Tensor log_one_minus_tanh_squared(const torch::Tensor& u);

// The deterministic action for evaluation: tanh(mean).
torch::Tensor squashed_mode(const torch::Tensor& mean);

// (-1, 1) <-> the env's box [low, high], elementwise.
torch::Tensor to_box(const torch::Tensor& squashed, const torch::Tensor& low, const torch::Tensor& high);
torch::Tensor from_box(const torch::Tensor& action, const torch::Tensor& low, const torch::Tensor& high);

}  // namespace seedrl::sac
