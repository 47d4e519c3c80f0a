// V-trace's PolicyStep: the actor-critic AgentNet, actions sampled from its
// policy distribution, the distribution's parameters recorded as the
// behaviour policy, every slot recorded. With a model that takes the previous
// action (--prev-action-input) it keeps each slot's last action, feeds it as
// the one extra input (-1 at an episode start) and records it after the
// distribution's parameters, where the learner reads it back
// (recorded_prev_action in vtrace_learner.h).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "seedrl/env/spec.h"
#include "seedrl/inference/action_selector.h"
#include "seedrl/inference/policy_step.h"
#include "seedrl/model/agent_net.h"
#include "seedrl/model/policy_distribution.h"  // callers size the model by its param_size()

namespace seedrl {

class ActorCriticStep final : public PolicyStep {
 public:
  using ModelFactory = std::function<AgentNet()>;

  ActorCriticStep(ModelFactory make_model, const ActionSpec& action, int num_slots);

  PolicyModel make_model(torch::Device device) const override;
  CoreState initial_state(int num_slots, torch::Device device) const override;
  int extra_inputs() const override { return takes_prev_action_ ? 1 : 0; }
  void fill_inputs(const InferenceBatch& batch, std::span<const torch::Tensor> inputs) override;
  torch::Tensor select(const torch::Tensor& output, const torch::Tensor& slots) override;
  void acted(int slot, const float* action) override;
  int record_size() const override { return param_size_ + (takes_prev_action_ ? 1 : 0); }
  void record(const torch::Tensor& output, std::span<const torch::Tensor> inputs, torch::Tensor rows) const override;

 private:
  ModelFactory make_model_;
  std::unique_ptr<ActionSelector> sampler_;  // make_sampling_selector(action)
  int param_size_;                           // the distribution's parameters per row
  bool takes_prev_action_;
  std::vector<float> prev_action_;  // per slot, with takes_prev_action_; -1 before the first action
};

}  // namespace seedrl
