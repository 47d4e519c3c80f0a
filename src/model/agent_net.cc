#include "seedrl/model/agent_net.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <torch/nn/init.h>
#include <torch/torch.h>

#include "seedrl/model/orthogonal_init.h"
#include "seedrl/model/torso.h"

namespace seedrl {
namespace {

// A quarter of the box's width per dimension (std 1 on Pendulum's [-2, 2],
// 0.5 on MuJoCo's [-1, 1]): wide enough to explore the box from the start
// without most samples landing outside it. Unbounded boxes start at std 1.
torch::Tensor initial_log_std(const ActionSpec& action) {
  auto t = torch::zeros({action.dim});
  for (int i = 0; i < action.dim; ++i) {
    const double width = static_cast<double>(action.high[i]) - action.low[i];
    if (std::isfinite(width) && width > 0) t[i] = std::log(width / 4);
  }
  return t;
}

}  // namespace

torch::Tensor prev_action_one_hot(const torch::Tensor& prev_action, std::int64_t num_actions) {
  // Class 0 stands for "none" (-1) and is dropped: an episode start is all zeros.
  auto index = (prev_action.to(torch::kInt64) + 1).clamp(0, num_actions);
  return torch::one_hot(index, num_actions + 1).narrow(-1, 1, num_actions).to(torch::kFloat32);
}

AgentNetImpl::AgentNetImpl(const EnvSpec& env, const ModelConfig& config, int policy_size)
    : config_(config), obs_rank_(static_cast<std::int64_t>(env.observation.shape.size())) {
  if (config.normalize_obs) {
    if (env.observation.shape.size() != 1)
      throw std::invalid_argument("--normalize-obs: only vector observations are normalised, " + env.name + " gives " +
                                  env.observation.to_string());
    normalizer_ = register_module("obs_normalizer", ObsNormalizer(env.observation.shape[0]));
  }
  Torso torso = make_torso(env.observation, config);
  torso_ = torso.module;
  register_module("torso", torso_.ptr());
  int features = torso.features;
  if (config.prev_action_input) {
    if (!env.action.is_discrete())
      throw std::invalid_argument("--prev-action-input: discrete actions only, " + env.name + " has " +
                                  env.action.to_string());
    prev_actions_ = env.action.num_actions;
    features += static_cast<int>(prev_actions_);
  }
  if (config.lstm) {
    lstm_ = register_module("lstm", torch::nn::LSTMCell(features, config.lstm_size));
    features = config.lstm_size;
  }
  int value_features = features;
  if (config.separate_value_net) {
    if (config.lstm) throw std::invalid_argument("--separate-value-net: not available with --lstm");
    Torso value_torso = make_torso(env.observation, config);
    value_torso_ = value_torso.module;
    register_module("value_torso", value_torso_.ptr());
    value_features = value_torso.features + static_cast<int>(prev_actions_);
  }
  int head_size = policy_size;
  if (!env.action.is_discrete()) {
    // Gaussian: the head gives the mean; the log-std is one learned vector
    // for all states (see policy_distribution.h).
    const int dim = env.action.dim;
    if (policy_size != 2 * dim)
      throw std::invalid_argument("AgentNet: a Gaussian policy over box(" + std::to_string(dim) + ") needs " +
                                  std::to_string(2 * dim) + " parameters, got " + std::to_string(policy_size));
    head_size = dim;
    log_std_ = register_parameter("log_std", initial_log_std(env.action));
  }
  policy_ = register_module("policy", torch::nn::Linear(features, head_size));
  value_ = register_module("value", torch::nn::Linear(value_features, 1));
  // Small initial policy logits (or means) keep the first policy close to
  // uniform (or centred): PPO's orthogonal gain of 0.01, or LibTorch's
  // default layer scaled by 0.01.
  if (config.weight_init == "orthogonal") {
    const double relu_gain = std::sqrt(2.0);
    orthogonal_init(*torso_.ptr(), relu_gain);
    if (config.separate_value_net) orthogonal_init(*value_torso_.ptr(), relu_gain);
    orthogonal_init(*policy_, 0.01);
    orthogonal_init(*value_, 1.0);
    return;
  }
  if (config.weight_init != "default")
    throw std::invalid_argument("--weight-init: default or orthogonal, got '" + config.weight_init + "'");
  torch::NoGradGuard no_grad;
  policy_->weight.mul_(0.01);
  policy_->bias.zero_();
}

CoreState AgentNetImpl::initial_state(std::int64_t batch, torch::Device device) const {
  if (!has_core()) return {};
  return zero_core_state(batch, config_.lstm_size, device);
}

NetOutput AgentNetImpl::forward(const torch::Tensor& obs, const torch::Tensor& first, CoreState state,
                                const torch::Tensor& prev_action) {
  const auto T = obs.size(0), B = obs.size(1);
  auto x = obs.flatten(0, 1);
  if (!normalizer_.is_empty()) x = normalizer_->forward(x.to(torch::kFloat32));
  auto features = torso_.forward(x);  // [T*B, F]
  auto value_features = value_torso_.is_empty() ? features : value_torso_.forward(x);
  if (takes_prev_action()) {
    if (!prev_action.defined()) throw std::invalid_argument("AgentNet: --prev-action-input needs the previous actions");
    auto one_hot = prev_action_one_hot(prev_action.reshape({T * B}), prev_actions_).to(features.scalar_type());
    features = torch::cat({features, one_hot}, 1);
    value_features = value_torso_.is_empty() ? features : torch::cat({value_features, one_hot}, 1);
  }
  if (has_core()) {
    features = unroll_lstm(lstm_, features.view({T, B, -1}), first, state).flatten(0, 1);
    value_features = features;
  }
  NetOutput out;
  out.policy = policy_->forward(features).view({T, B, -1});
  if (log_std_.defined()) out.policy = torch::cat({out.policy, log_std_.expand_as(out.policy)}, -1);
  out.value = value_->forward(value_features).view({T, B});
  out.state = state;
  return out;
}

torch::Tensor AgentNetImpl::prepare_obs(const torch::Tensor& obs, const torch::Tensor& unrolls) const {
  const auto gathered = [&] { return unrolls.defined() ? obs.index_select(1, unrolls.to(obs.device())) : obs; };
  // One torso only: a separate value torso would need the same form, and
  // normalised observations are not frames.
  const auto* torso = dynamic_cast<const PreparesInput*>(torso_.ptr().get());
  if (torso == nullptr || !normalizer_.is_empty() || !value_torso_.is_empty() || obs.dim() < 2) return gathered();
  const std::int64_t T = obs.size(0), B = obs.size(1);
  torch::Tensor frames;  // the wanted entries' rows of obs viewed as [T * B, ...], time-major
  if (unrolls.defined()) {
    const auto u = unrolls.to(torch::kInt64).to(obs.device());
    frames = (torch::arange(T, u.options()).unsqueeze(1) * B + u.unsqueeze(0)).flatten();
  }
  const torch::Tensor x = torso->prepare(obs.flatten(0, 1), frames);
  if (!x.defined()) return gathered();
  std::vector<std::int64_t> shape{T, unrolls.defined() ? unrolls.numel() : B};
  for (std::int64_t d = 1; d < x.dim(); ++d) shape.push_back(x.size(d));
  return x.view(shape);
}

void AgentNetImpl::update_obs_normalizer(const torch::Tensor& obs) {
  if (!normalizer_.is_empty()) normalizer_->update(obs.flatten(0, 1).to(torch::kFloat64));
}

void copy_parameters(const torch::nn::Module& src, torch::nn::Module& dst) {
  torch::NoGradGuard no_grad;
  auto s = src.parameters(), d = dst.parameters();
  for (size_t i = 0; i < s.size(); ++i) d[i].copy_(s[i], /*non_blocking=*/true);
  auto sb = src.buffers(), db = dst.buffers();
  for (size_t i = 0; i < sb.size(); ++i) db[i].copy_(sb[i], true);
}

}  // namespace seedrl
