#include "seedrl/inference/epsilon_greedy.h"

#include <cmath>
#include <stdexcept>

#include <torch/torch.h>

namespace seedrl::r2d2 {

double apex_epsilon(int i, int n, double eps, double alpha) {
  if (n <= 1) return eps;
  return std::pow(eps, 1.0 + alpha * static_cast<double>(i) / static_cast<double>(n - 1));
}

double van_der_corput(std::uint64_t j) {
  double f = 0, scale = 0.5;
  for (; j > 0; j >>= 1, scale *= 0.5)
    if (j & 1) f += scale;
  return f;
}

EpsilonGreedySelector::EpsilonGreedySelector(int num_actions, int train_envs, int eval_envs, double epsilon,
                                             double alpha, double eval_epsilon, std::uint64_t seed, int remote_envs)
    : num_actions_(num_actions) {
  const int n = train_envs + eval_envs;
  const int local = train_envs - remote_envs;
  epsilon_.resize(n);
  rng_.reserve(n);
  for (int i = 0; i < n; ++i) {
    if (i < local)
      epsilon_[i] = apex_epsilon(i, local, epsilon, alpha);
    else if (i < train_envs)
      epsilon_[i] = std::pow(epsilon, 1.0 + alpha * van_der_corput(static_cast<std::uint64_t>(i - local)));
    else
      epsilon_[i] = eval_epsilon;
    rng_.emplace_back(derive_seed(seed ^ 0x5EEDE95110ull, static_cast<std::uint64_t>(i)));
  }
}

torch::Tensor EpsilonGreedySelector::select(const torch::Tensor& q, const torch::Tensor& slots) {
  auto actions = q.argmax(-1, /*keepdim=*/true).to(torch::kCPU).to(torch::kFloat32).contiguous();
  float* a = actions.data_ptr<float>();
  const auto* s = slots.data_ptr<std::int64_t>();
  const auto n = actions.size(0);
  for (std::int64_t i = 0; i < n; ++i) {
    const auto slot = static_cast<std::size_t>(s[i]);
    if (slot >= rng_.size()) throw std::out_of_range("epsilon-greedy: slot out of range");
    Rng& rng = rng_[slot];
    if (rng.bernoulli(epsilon_[slot])) a[i] = static_cast<float>(rng.below(static_cast<std::uint64_t>(num_actions_)));
  }
  return actions;
}

}  // namespace seedrl::r2d2
