// The agent's network in the torch::nn style: torso -> optional LSTM core ->
// policy and value heads (or, with separate_value_net, a second torso of its
// own for the value head). Inputs are time-major [T, B, ...] so the same module
// serves inference (T = 1) and the learner (T = unroll length). For discrete
// actions the policy output is the logits; for continuous ones it is
// [mean, log_std] (policy_distribution.h), the log-std a learned parameter.
#pragma once

#include <torch/nn/module.h>
#include <torch/nn/modules/container/any.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/rnn.h>
#include <torch/nn/pimpl.h>

#include "seedrl/env/spec.h"
#include "seedrl/model/lstm_core.h"
#include "seedrl/model/model_config.h"
#include "seedrl/model/obs_normalizer.h"

namespace seedrl {

struct NetOutput {
  torch::Tensor policy;  // [T, B, P] distribution parameters
  torch::Tensor value;   // [T, B]
  CoreState state;       // state after the last step
};

class AgentNetImpl : public torch::nn::Module {
 public:
  AgentNetImpl(const EnvSpec& env, const ModelConfig& config, int policy_size);

  // obs [T, B, ...observation shape] of the env's dtype; first [T, B] marks
  // steps that begin an episode (the core state is zeroed before them);
  // prev_action [T, B] float, the action before each step (-1 for none), is
  // read only by a model that takes_prev_action().
  NetOutput forward(const torch::Tensor& obs, const torch::Tensor& first, CoreState state,
                    const torch::Tensor& prev_action = {});

  // obs[:, unrolls] ([T, B, ...]; unrolls int64 [B'] into B, or undefined
  // for all) in the form the torso's first layer reads (PreparesInput in
  // torso.h), which forward() takes in their place, made in one pass over
  // those frames; the unrolls gathered as they are where the torso has no
  // such form (obs itself when all are wanted).
  torch::Tensor prepare_obs(const torch::Tensor& obs, const torch::Tensor& unrolls = {}) const;

  CoreState initial_state(std::int64_t batch, torch::Device device = torch::kCPU) const;
  bool has_core() const { return !lstm_.is_empty(); }
  // --prev-action-input: forward() needs each step's previous action.
  bool takes_prev_action() const { return prev_actions_ > 0; }
  // --normalize-obs: merges obs [T, B, dim] into the running moments (no-op without).
  void update_obs_normalizer(const torch::Tensor& obs);
  bool normalizes_obs() const { return !normalizer_.is_empty(); }
  int core_size() const { return config_.lstm_size; }

 private:
  ModelConfig config_;
  std::int64_t obs_rank_;
  std::int64_t prev_actions_ = 0;  // width of the previous action's one-hot (0: not an input)
  ObsNormalizer normalizer_{nullptr};
  torch::nn::AnyModule torso_;
  torch::nn::AnyModule value_torso_;  // --separate-value-net only
  torch::nn::LSTMCell lstm_{nullptr};
  torch::nn::Linear policy_{nullptr}, value_{nullptr};
  torch::Tensor log_std_;  // [dim], continuous actions only
};
TORCH_MODULE(AgentNet);

// [..., num_actions] float: the one-hot of each previous action (float
// indices), all zeros where it is -1 (no previous action).
torch::Tensor prev_action_one_hot(const torch::Tensor& prev_action, std::int64_t num_actions);

// Copies parameters and buffers of `src` into `dst` (same architecture).
void copy_parameters(const torch::nn::Module& src, torch::nn::Module& dst);

}  // namespace seedrl
