// V-trace's PolicyStep: the actor-critic AgentNet, actions sampled from its
// policy distribution, the distribution's parameters recorded as the
// behaviour policy, every slot recorded.
#pragma once

#include <functional>
#include <memory>

#include "seedrl/env/spec.h"
#include "seedrl/inference/action_selector.h"
#include "seedrl/inference/policy_step.h"
#include "seedrl/model/agent_net.h"
#include "seedrl/model/policy_distribution.h"  // callers size the model by its param_size()

namespace seedrl {

class ActorCriticStep final : public PolicyStep {
 public:
  using ModelFactory = std::function<AgentNet()>;

  ActorCriticStep(ModelFactory make_model, const ActionSpec& action);

  PolicyModel make_model(torch::Device device) const override;
  CoreState initial_state(int num_slots, torch::Device device) const override;
  torch::Tensor select(const torch::Tensor& output, const torch::Tensor& slots) override;
  int record_size() const override { return record_size_; }
  void record(const torch::Tensor& output, std::span<const torch::Tensor> inputs, torch::Tensor rows) const override;

 private:
  ModelFactory make_model_;
  std::unique_ptr<ActionSelector> sampler_;  // make_sampling_selector(action)
  int record_size_;                          // the distribution's parameters per row
};

}  // namespace seedrl
