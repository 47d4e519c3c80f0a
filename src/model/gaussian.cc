// Diagonal Gaussian policy: params [..., 2*dim] = [mean, log_std]. See
// policy_distribution.h for why the log-std is state-independent and why
// actions are clipped rather than squashed.
#include <cmath>
#include <stdexcept>

#include <torch/torch.h>

#include "seedrl/model/policy_distribution.h"
#include "seedrl/util/cuda_rng_lock.h"

namespace seedrl {
namespace {

// log(2 * pi) / 2 and the per-dimension entropy of a unit Gaussian.
const double kHalfLog2Pi = 0.5 * std::log(2.0 * M_PI);
const double kHalfLog2PiE = 0.5 * std::log(2.0 * M_PI * M_E);

class Gaussian final : public PolicyDistribution {
 public:
  explicit Gaussian(int dim) : dim_(dim) {}
  int param_size() const override { return 2 * dim_; }

  torch::Tensor sample(const torch::Tensor& params) const override {
    auto mean = params.narrow(-1, 0, dim_), log_std = params.narrow(-1, dim_, dim_);
    torch::Tensor noise;
    {
      auto lock = lock_cuda_rng(mean);
      noise = torch::randn_like(mean);
    }
    return mean + log_std.exp() * noise;
  }
  torch::Tensor sample(const torch::Tensor& params, at::Generator& generator) const override {
    auto mean = params.narrow(-1, 0, dim_), log_std = params.narrow(-1, dim_, dim_);
    return mean + log_std.exp() * torch::randn(mean.sizes(), generator, mean.options());
  }
  torch::Tensor mode(const torch::Tensor& params) const override { return params.narrow(-1, 0, dim_).clone(); }
  torch::Tensor log_prob(const torch::Tensor& params, const torch::Tensor& actions) const override {
    auto mean = params.narrow(-1, 0, dim_), log_std = params.narrow(-1, dim_, dim_);
    auto z = (actions - mean) * (-log_std).exp();
    return (-0.5 * z * z - log_std).sum(-1) - dim_ * kHalfLog2Pi;
  }
  torch::Tensor entropy(const torch::Tensor& params) const override {
    return params.narrow(-1, dim_, dim_).sum(-1) + dim_ * kHalfLog2PiE;
  }

 private:
  int dim_;
};

}  // namespace

std::unique_ptr<PolicyDistribution> make_gaussian(int dim) {
  if (dim < 1) throw std::invalid_argument("Gaussian policy: the action box needs at least one dimension");
  return std::make_unique<Gaussian>(dim);
}

}  // namespace seedrl
