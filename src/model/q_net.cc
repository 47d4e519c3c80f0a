#include "seedrl/model/q_net.h"

#include <stdexcept>

#include <torch/torch.h>

#include "seedrl/model/torso.h"

namespace seedrl {

QNetImpl::QNetImpl(const EnvSpec& env, const ModelConfig& config) : config_(config) {
  if (!env.action.is_discrete())
    throw std::invalid_argument("--algo r2d2: needs a discrete action space (" + env.name + " is continuous)");
  num_actions_ = env.action.num_actions;
  Torso torso = make_torso(env.observation, config);
  torso_ = torso.module;
  register_module("torso", torso_.ptr());
  int features = torso.features;
  if (config.lstm) {
    lstm_ = register_module("lstm", torch::nn::LSTMCell(features + num_actions_ + 1, config.lstm_size));
    features = config.lstm_size;
  }
  const int hidden = features;
  value_ = register_module("value", torch::nn::Sequential(torch::nn::Linear(features, hidden), torch::nn::ReLU(),
                                                          torch::nn::Linear(hidden, 1)));
  advantage_ =
      register_module("advantage", torch::nn::Sequential(torch::nn::Linear(features, hidden), torch::nn::ReLU(),
                                                         torch::nn::Linear(hidden, num_actions_)));
}

CoreState QNetImpl::initial_state(std::int64_t batch, torch::Device device) const {
  if (!has_core()) return {};
  return zero_core_state(batch, config_.lstm_size, device);
}

QOutput QNetImpl::forward(const torch::Tensor& obs, const torch::Tensor& first, const torch::Tensor& prev_action,
                          const torch::Tensor& prev_reward, CoreState state) {
  const auto T = obs.size(0), B = obs.size(1);
  auto features = torso_.forward(obs.flatten(0, 1));  // [T*B, F]
  if (has_core()) {
    auto keep = (1 - first.to(torch::kFloat32)).unsqueeze(-1);  // [T, B, 1]
    // One-hot of the previous action; an index < 0 (none) gives zeros.
    auto a = prev_action.to(torch::kLong);
    auto valid = a.ge(0).to(torch::kFloat32).unsqueeze(-1);
    auto onehot = torch::one_hot(a.clamp_min(0), num_actions_).to(torch::kFloat32) * valid * keep;
    auto r = prev_reward.to(torch::kFloat32).unsqueeze(-1) * keep;
    auto x = torch::cat({features.view({T, B, -1}), onehot, r}, -1);
    features = unroll_lstm(lstm_, x, first, state).flatten(0, 1);
  }
  auto v = value_->forward(features);
  auto adv = advantage_->forward(features);
  QOutput out;
  out.q = (v + adv - adv.mean(-1, /*keepdim=*/true)).view({T, B, num_actions_});
  out.state = state;
  return out;
}

}  // namespace seedrl
