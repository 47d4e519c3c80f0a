// Soft actor-critic's networks (Haarnoja et al. 2018): the actor, a torso
// and a linear head giving each action dimension's mean and log-std (both
// state-dependent, as SAC's are; the squashing is model/squashed_gaussian.h);
// two critics Q_j(s, a), each an MLP with the --hidden widths over the
// flattened observation and the squashed action; target copies of both
// critics; and log(alpha), the entropy temperature, learned beside them.
#pragma once

#include <torch/nn/module.h>
#include <torch/nn/modules/container/any.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include "seedrl/env/spec.h"
#include "seedrl/model/model_config.h"

namespace seedrl {

struct GaussianParams {
  torch::Tensor mean, log_std;  // [N, dim]; log_std unclamped
};

class SacActorImpl : public torch::nn::Module {
 public:
  SacActorImpl(const EnvSpec& env, const ModelConfig& config);
  GaussianParams forward(const torch::Tensor& obs);  // obs [N, ...obs]
  // parameters() are the Linear layers' weights and biases in order (the
  // head's output: the means, then the log-stds), this activation between them.
  bool tanh_activation() const { return tanh_; }

 private:
  torch::nn::AnyModule torso_;
  torch::nn::Linear head_{nullptr};
  int dim_;
  bool tanh_;
};
TORCH_MODULE(SacActor);

class SacCriticImpl : public torch::nn::Module {
 public:
  SacCriticImpl(const EnvSpec& env, const ModelConfig& config);
  torch::Tensor forward(const torch::Tensor& obs, const torch::Tensor& action);  // -> [N]
  // The input is [flattened obs, action]; parameters() are the Linear layers'
  // weights and biases in order, this activation between them.
  bool tanh_activation() const { return tanh_; }

 private:
  torch::nn::AnyModule torso_;
  torch::nn::Linear head_{nullptr};
  bool tanh_;
};
TORCH_MODULE(SacCritic);

class SacNetImpl : public torch::nn::Module {
 public:
  // Throws std::invalid_argument naming --algo for a discrete action space
  // and --model for an image observation (SAC here is for vector control).
  SacNetImpl(const EnvSpec& env, const ModelConfig& config, double initial_temperature);

  SacActor actor{nullptr};
  SacCritic q1{nullptr}, q2{nullptr}, target_q1{nullptr}, target_q2{nullptr};
  torch::Tensor log_alpha;  // a registered parameter, shape []

  // The critics' and the actor's parameters apart, for their own optimizers.
  std::vector<torch::Tensor> critic_parameters();
  std::vector<torch::Tensor> target_parameters();
};
TORCH_MODULE(SacNet);

}  // namespace seedrl
