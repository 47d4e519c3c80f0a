#include "seedrl/model/agent_net.h"

#include <torch/nn/init.h>
#include <torch/torch.h>

#include "seedrl/model/torso.h"

namespace seedrl {

AgentNetImpl::AgentNetImpl(const EnvSpec& env, const ModelConfig& config, int policy_size)
    : config_(config), obs_rank_(static_cast<std::int64_t>(env.observation.shape.size())) {
  Torso torso = make_torso(env.observation, config);
  torso_ = torso.module;
  register_module("torso", torso_.ptr());
  int features = torso.features;
  if (config.lstm) {
    lstm_ = register_module("lstm", torch::nn::LSTMCell(features, config.lstm_size));
    features = config.lstm_size;
  }
  policy_ = register_module("policy", torch::nn::Linear(features, policy_size));
  value_ = register_module("value", torch::nn::Linear(features, 1));
  // Small initial policy logits keep the first policy close to uniform.
  torch::NoGradGuard no_grad;
  policy_->weight.mul_(0.01);
  policy_->bias.zero_();
}

CoreState AgentNetImpl::initial_state(std::int64_t batch, torch::Device device) const {
  if (!has_core()) return {};
  auto opts = torch::TensorOptions().dtype(torch::kFloat32).device(device);
  return {torch::zeros({batch, config_.lstm_size}, opts), torch::zeros({batch, config_.lstm_size}, opts)};
}

NetOutput AgentNetImpl::forward(const torch::Tensor& obs, const torch::Tensor& first, CoreState state) {
  const auto T = obs.size(0), B = obs.size(1);
  auto features = torso_.forward(obs.flatten(0, 1));  // [T*B, F]
  if (has_core()) {
    features = features.view({T, B, -1});
    auto keep = (1 - first.to(torch::kFloat32)).unsqueeze(-1);  // [T, B, 1]
    std::vector<torch::Tensor> outs;
    outs.reserve(T);
    auto h = state.h, c = state.c;
    for (int64_t t = 0; t < T; ++t) {
      h = h * keep[t];
      c = c * keep[t];
      auto hc = lstm_->forward(features[t], std::make_tuple(h, c));
      h = std::get<0>(hc);
      c = std::get<1>(hc);
      outs.push_back(h);
    }
    state = {h, c};
    features = torch::stack(outs).flatten(0, 1);
  }
  NetOutput out;
  out.policy = policy_->forward(features).view({T, B, -1});
  out.value = value_->forward(features).view({T, B});
  out.state = state;
  return out;
}

void copy_parameters(const torch::nn::Module& src, torch::nn::Module& dst) {
  torch::NoGradGuard no_grad;
  auto s = src.parameters(), d = dst.parameters();
  for (size_t i = 0; i < s.size(); ++i) d[i].copy_(s[i], /*non_blocking=*/true);
  auto sb = src.buffers(), db = dst.buffers();
  for (size_t i = 0; i < sb.size(); ++i) db[i].copy_(sb[i], true);
}

}  // namespace seedrl
