#include "seedrl/inference/actor_critic_step.h"

#include <torch/torch.h>

namespace seedrl {

ActorCriticStep::ActorCriticStep(ModelFactory make_model, const ActionSpec& action)
    : make_model_(std::move(make_model)),
      sampler_(make_sampling_selector(action)),
      record_size_(make_policy_distribution(action)->param_size()) {}

PolicyModel ActorCriticStep::make_model(torch::Device device) const {
  AgentNet model = make_model_();
  model->to(device);
  model->eval();
  return {model.ptr(), [model](const std::vector<torch::Tensor>& in) mutable {
            NetOutput o = model->forward(in[0], in[1], CoreState{in[2], in[3]});
            return std::vector<torch::Tensor>{o.policy, o.state.h, o.state.c};
          }};
}

CoreState ActorCriticStep::initial_state(int num_slots, torch::Device device) const {
  AgentNet probe = make_model_();
  return probe->has_core() ? probe->initial_state(num_slots, device) : CoreState{};
}

torch::Tensor ActorCriticStep::select(const torch::Tensor& output, const torch::Tensor& slots) {
  return sampler_->select(output, slots);
}

void ActorCriticStep::record(const torch::Tensor& output, std::span<const torch::Tensor>, torch::Tensor rows) const {
  rows.copy_(output);
}

}  // namespace seedrl
