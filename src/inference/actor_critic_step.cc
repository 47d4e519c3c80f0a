#include "seedrl/inference/actor_critic_step.h"

#include <torch/torch.h>

namespace seedrl {

ActorCriticStep::ActorCriticStep(ModelFactory make_model, const ActionSpec& action, int num_slots)
    : make_model_(std::move(make_model)),
      sampler_(make_sampling_selector(action)),
      param_size_(make_policy_distribution(action)->param_size()),
      takes_prev_action_(make_model_()->takes_prev_action()) {
  if (takes_prev_action_) prev_action_.assign(static_cast<std::size_t>(num_slots), -1.f);
}

PolicyModel ActorCriticStep::make_model(torch::Device device) const {
  AgentNet model = make_model_();
  model->to(device);
  model->eval();
  // Inputs {obs, first, [previous action,] h, c}.
  const std::size_t core = takes_prev_action_ ? 3 : 2;
  const bool prev = takes_prev_action_;
  return {
      model.ptr(), [model, core, prev](const std::vector<torch::Tensor>& in) mutable {
        NetOutput o = model->forward(in[0], in[1], CoreState{in[core], in[core + 1]}, prev ? in[2] : torch::Tensor{});
        return std::vector<torch::Tensor>{o.policy, o.state.h, o.state.c};
      }};
}

void ActorCriticStep::fill_inputs(const InferenceBatch& batch, std::span<const torch::Tensor> inputs) {
  if (!takes_prev_action_) return;
  float* prev = inputs[0].data_ptr<float>();
  for (int i = 0; i < batch.size; ++i) {
    const EnvStep& step = *batch.steps[i];
    prev[i] = (step.flags & kFirst) ? -1.f : prev_action_[static_cast<std::size_t>(step.slot)];
  }
}

void ActorCriticStep::acted(int slot, const float* action) {
  if (takes_prev_action_) prev_action_[static_cast<std::size_t>(slot)] = action[0];
}

CoreState ActorCriticStep::initial_state(int num_slots, torch::Device device) const {
  AgentNet probe = make_model_();
  return probe->has_core() ? probe->initial_state(num_slots, device) : CoreState{};
}

torch::Tensor ActorCriticStep::select(const torch::Tensor& output, const torch::Tensor& slots) {
  return sampler_->select(output, slots);
}

void ActorCriticStep::record(const torch::Tensor& output, std::span<const torch::Tensor> inputs,
                             torch::Tensor rows) const {
  if (!takes_prev_action_) {
    rows.copy_(output);
    return;
  }
  rows.narrow(1, 0, param_size_).copy_(output);
  rows.select(1, param_size_).copy_(inputs[0]);
}

}  // namespace seedrl
