#include "seedrl/inference/q_value_step.h"

#include <torch/torch.h>

namespace seedrl::r2d2 {

QValueStep::QValueStep(ModelFactory make_model, std::unique_ptr<ActionSelector> selector, int train_envs, int num_slots)
    : make_model_(std::move(make_model)),
      selector_(std::move(selector)),
      train_envs_(train_envs),
      num_actions_(make_model_()->num_actions()),
      prev_action_(static_cast<std::size_t>(num_slots), -1.f) {}

PolicyModel QValueStep::make_model(torch::Device device) const {
  QNet model = make_model_();
  model->to(device);
  model->eval();
  return {model.ptr(), [model](const std::vector<torch::Tensor>& in) mutable {
            QOutput o = model->forward(in[0], in[1], in[2], in[3], CoreState{in[4], in[5]});
            return std::vector<torch::Tensor>{o.q, o.state.h, o.state.c};
          }};
}

CoreState QValueStep::initial_state(int num_slots, torch::Device device) const {
  QNet probe = make_model_();
  return probe->has_core() ? probe->initial_state(num_slots, device) : CoreState{};
}

void QValueStep::fill_inputs(const InferenceBatch& batch, std::span<const torch::Tensor> inputs) {
  float* prev_a = inputs[0].data_ptr<float>();
  float* prev_r = inputs[1].data_ptr<float>();
  for (int i = 0; i < batch.size; ++i) {
    const EnvStep& step = *batch.steps[i];
    const bool first = step.flags & kFirst;
    prev_a[i] = first ? -1.f : prev_action_[static_cast<std::size_t>(step.slot)];
    prev_r[i] = first ? 0.f : step.reward;
  }
}

torch::Tensor QValueStep::select(const torch::Tensor& output, const torch::Tensor& slots) {
  return selector_->select(output, slots);
}

void QValueStep::record(const torch::Tensor& output, std::span<const torch::Tensor> inputs, torch::Tensor rows) const {
  rows.select(1, 0).copy_(inputs[0]);
  rows.narrow(1, 1, num_actions_).copy_(output);
}

std::unique_ptr<InferenceServer> make_q_inference_server(RequestBatcher& batcher, TrajectoryStore& store,
                                                         ParamPublisher& publisher, QValueStep::ModelFactory make_model,
                                                         std::unique_ptr<ActionSelector> selector, int train_envs,
                                                         int num_slots, int threads, torch::Device device) {
  return std::make_unique<InferenceServer>(
      batcher, &store, publisher,
      std::make_unique<QValueStep>(std::move(make_model), std::move(selector), train_envs, num_slots), num_slots,
      threads, device);
}

}  // namespace seedrl::r2d2
