// The action distribution a policy head parameterises. The network outputs a
// flat parameter vector per step; inference samples from it and stores it as
// the behaviour policy; the learner recomputes log-probabilities and entropy.
#pragma once

#include <memory>

#include <torch/types.h>

#include "seedrl/env/spec.h"

namespace seedrl {

class PolicyDistribution {
 public:
  virtual ~PolicyDistribution() = default;
  // Width of the parameter vector per step.
  virtual int param_size() const = 0;
  // params [..., P] -> actions [..., action_width] (float; discrete as indices).
  virtual torch::Tensor sample(const torch::Tensor& params) const = 0;
  // Most likely action, for evaluation.
  virtual torch::Tensor mode(const torch::Tensor& params) const = 0;
  // params [..., P], actions [..., action_width] -> [...]
  virtual torch::Tensor log_prob(const torch::Tensor& params, const torch::Tensor& actions) const = 0;
  virtual torch::Tensor entropy(const torch::Tensor& params) const = 0;
};

// Categorical over ActionSpec::num_actions; params are logits.
std::unique_ptr<PolicyDistribution> make_policy_distribution(const ActionSpec& action);

}  // namespace seedrl
