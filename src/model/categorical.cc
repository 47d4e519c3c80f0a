#include <stdexcept>

#include "seedrl/model/policy_distribution.h"
#include "seedrl/util/cuda_rng_lock.h"

namespace seedrl {
namespace {

class Categorical final : public PolicyDistribution {
 public:
  explicit Categorical(int n) : n_(n) {}
  int param_size() const override { return n_; }
  bool is_categorical() const override { return true; }

  torch::Tensor sample(const torch::Tensor& logits) const override {
    torch::Tensor u;
    {
      auto lock = lock_cuda_rng(logits);
      u = torch::rand_like(logits);
    }
    return gumbel_max(logits, u);
  }
  torch::Tensor sample(const torch::Tensor& logits, at::Generator& generator) const override {
    return gumbel_max(logits, torch::rand(logits.sizes(), generator, logits.options()));
  }
  torch::Tensor mode(const torch::Tensor& logits) const override { return logits.argmax(-1, true).to(torch::kFloat32); }
  torch::Tensor log_prob(const torch::Tensor& logits, const torch::Tensor& actions) const override {
    return torch::log_softmax(logits, -1).gather(-1, actions.to(torch::kLong)).squeeze(-1);
  }
  torch::Tensor entropy(const torch::Tensor& logits) const override {
    return entropy_of(torch::log_softmax(logits, -1));
  }
  LogProbEntropy log_prob_and_entropy(const torch::Tensor& logits, const torch::Tensor& actions) const override {
    auto logp = torch::log_softmax(logits, -1);
    return {logp.gather(-1, actions.to(torch::kLong)).squeeze(-1), entropy_of(logp)};
  }

 private:
  // Gumbel-max: argmax(logits + Gumbel noise) is an exact categorical sample
  // and works on any leading shape in one pass. `u`: uniform in [0, 1).
  static torch::Tensor gumbel_max(const torch::Tensor& logits, torch::Tensor u) {
    u.clamp_(1e-20, 1.0);
    return (logits - torch::log(-torch::log(u))).argmax(-1, /*keepdim=*/true).to(torch::kFloat32);
  }
  static torch::Tensor entropy_of(const torch::Tensor& logp) { return -(logp.exp() * logp).sum(-1); }
  int n_;
};

}  // namespace

std::unique_ptr<PolicyDistribution> make_categorical(int num_actions) {
  if (num_actions < 1) throw std::invalid_argument("categorical policy: need at least one action");
  return std::make_unique<Categorical>(num_actions);
}

}  // namespace seedrl
