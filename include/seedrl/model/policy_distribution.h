// The action distribution a policy head parameterises. The network outputs a
// flat parameter vector per step; inference samples from it and stores it as
// the behaviour policy; the learner recomputes log-probabilities and entropy.
//
// Discrete actions: a categorical over ActionSpec::num_actions; the
// parameters are the logits (P = num_actions).
//
// Continuous actions: a diagonal Gaussian; the parameters are the mean and
// the log standard deviation, P = 2 * dim ([mean..., log_std...]), so the
// stored behaviour parameters are all the learner needs to recompute
// behaviour log-probabilities. AgentNet makes the log-std one learned
// parameter vector independent of the state (as in PPO's and IMPALA-style
// continuous-control baselines): it cannot collapse on a few states and the
// entropy bonus acts on it directly. Samples are unbounded; the actor and
// evaluation clip them to the action box before env.step, and log-probs are
// computed on the unclipped sample (no tanh squashing, so no Jacobian term
// and no saturation at the box edges).
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
  // The same from `generator` (on the params' device) instead of the
  // process's generator, which every inference thread draws from: a stream
  // that one seed replays (evaluation, trainer/agent_policy.h).
  virtual torch::Tensor sample(const torch::Tensor& params, at::Generator& generator) const = 0;
  // Most likely action, for evaluation.
  virtual torch::Tensor mode(const torch::Tensor& params) const = 0;
  // params [..., P], actions [..., action_width] -> [...]
  virtual torch::Tensor log_prob(const torch::Tensor& params, const torch::Tensor& actions) const = 0;
  virtual torch::Tensor entropy(const torch::Tensor& params) const = 0;
  // Both, as the learner's loss needs them; a distribution that computes them
  // from shared terms (the categorical's log-softmax) does it once.
  struct LogProbEntropy {
    torch::Tensor log_prob, entropy;
  };
  // A categorical over param_size() actions, whose parameters are logits.
  virtual bool is_categorical() const { return false; }
  virtual LogProbEntropy log_prob_and_entropy(const torch::Tensor& params, const torch::Tensor& actions) const {
    return {log_prob(params, actions), entropy(params)};
  }
};

// Categorical for discrete specs, diagonal Gaussian for continuous ones.
std::unique_ptr<PolicyDistribution> make_policy_distribution(const ActionSpec& action);

std::unique_ptr<PolicyDistribution> make_categorical(int num_actions);
std::unique_ptr<PolicyDistribution> make_gaussian(int dim);

}  // namespace seedrl
