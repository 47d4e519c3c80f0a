#include "seedrl/learner/vtrace_learner.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <torch/torch.h>

#include "seedrl/env/env_step.h"
#include "seedrl/learner/reward_shaping.h"
#include "seedrl/learner/vtrace/fused_categorical_losses.h"

namespace seedrl {

torch::Tensor shape_rewards(const torch::Tensor& rewards, double clip, double scale) {
  auto r = clip > 0 ? rewards.clamp(-clip, clip) : rewards;
  return scale != 1.0 ? r * scale : r;
}

Transitions make_transitions(const torch::Tensor& flags_in, const torch::Tensor& rewards, double discount,
                             double reward_clip, double reward_scale) {
  const auto L = flags_in.size(0);
  const auto T = L - 1;
  auto flags = flags_in.to(torch::kInt32);
  Transitions tr;
  tr.valid = (flags.slice(0, 0, T) & (kTerminated | kTruncated)).eq(0).to(torch::kFloat32);
  auto terminal_next = (flags.slice(0, 1, L) & kTerminated).ne(0).to(torch::kFloat32);
  tr.rewards = shape_rewards(rewards.slice(0, 1, L), reward_clip, reward_scale);
  tr.discounts = discount * (1 - terminal_next) * tr.valid;
  return tr;
}

torch::Tensor normalized_advantages(const torch::Tensor& advantages, const torch::Tensor& valid) {
  // Moments over this batch's valid steps only (population variance); the
  // invalid steps' values are masked out by the caller's `valid` anyway.
  auto count = valid.sum().clamp_min(1.0);
  auto mean = (advantages * valid).sum() / count;
  auto var = ((advantages - mean).pow(2) * valid).sum() / count;
  return (advantages - mean) / (var.sqrt() + 1e-8);
}

torch::Tensor recorded_prev_action(const UnrollBatch& batch) { return batch.policy.select(-1, -1); }

NetOutput vtrace_forward(AgentNet& model, const UnrollBatch& batch, torch::Device device) {
  const bool nb = device.is_cuda();
  auto first = (batch.flags.to(device, nb).to(torch::kInt32) & kFirst).ne(0);
  CoreState state;
  if (batch.core_h.defined()) state = {batch.core_h.to(device, nb), batch.core_c.to(device, nb)};
  torch::Tensor prev_action;
  if (model->takes_prev_action()) prev_action = recorded_prev_action(batch).to(device, nb);
  return model->forward(batch.obs.to(device, nb), first, state, prev_action);
}

VTraceLosses vtrace_losses(AgentNet& model, const PolicyDistribution& dist, const UnrollBatch& batch,
                           const VTraceLossConfig& config, torch::Device device, double normalizer) {
  // The flags go to the device once: the forward and the losses both read them.
  UnrollBatch b = batch;
  b.flags = batch.flags.to(device, device.is_cuda());
  return vtrace_losses_from_output(vtrace_forward(model, b, device), dist, b, config, device, normalizer);
}

namespace {
// The behaviour policy's parameters, without the previous action that rows
// recorded with --prev-action-input carry after them.
torch::Tensor behaviour_params(const UnrollBatch& batch, const PolicyDistribution& dist) {
  return batch.policy.size(-1) == dist.param_size() + 1 ? batch.policy.narrow(-1, 0, dist.param_size()) : batch.policy;
}
}  // namespace

VTraceLosses vtrace_losses_from_output(const NetOutput& out, const PolicyDistribution& dist, const UnrollBatch& input,
                                       const VTraceLossConfig& config, torch::Device device, double normalizer) {
  UnrollBatch batch = input;
  batch.policy = behaviour_params(input, dist);
  if (fused_categorical_applies(dist, out, batch, config))
    return fused_categorical_losses(out, batch, config, normalizer);
  return vtrace_losses_tensor_ops(out, dist, batch, config, device, normalizer);
}

VTraceLosses vtrace_losses_tensor_ops(const NetOutput& out, const PolicyDistribution& dist, const UnrollBatch& batch,
                                      const VTraceLossConfig& config, torch::Device device, double normalizer) {
  const bool nb = device.is_cuda();
  auto flags = batch.flags.to(device, nb).to(torch::kInt32);  // [L, B]
  const auto L = flags.size(0);
  const auto T = L - 1;
  auto actions = batch.actions.to(device, nb).slice(0, 0, T);
  auto target_params = out.policy.slice(0, 0, T);
  auto behaviour_params = batch.policy.to(device, nb).slice(0, 0, T);
  auto [target_logp, target_entropy] = dist.log_prob_and_entropy(target_params, actions);
  auto behaviour_logp = dist.log_prob(behaviour_params, actions);
  auto log_rhos = (target_logp - behaviour_logp).detach();

  Transitions tr =
      make_transitions(flags, batch.rewards.to(device, nb), config.discount, config.reward_clip, config.reward_scale);
  const auto& valid = tr.valid;
  auto values = out.value.slice(0, 0, T);
  auto bootstrap = out.value[T];

  VTraceReturns vt;
  if (batch.fixed_vs.defined()) {
    vt.vs = batch.fixed_vs.to(device, nb);
    vt.advantages = vt.pg_advantages = batch.fixed_advantages.to(device, nb);
  } else {
    vt = vtrace(log_rhos, tr.discounts, tr.rewards, values.detach(), bootstrap.detach(), valid, config.vtrace);
  }
  auto n = normalizer > 0 ? torch::scalar_tensor(normalizer, valid.options()) : valid.sum().clamp_min(1.0);
  VTraceLosses l;
  // The clipped surrogate applies its own ratio, so it takes the advantage
  // without the rho^pg weight; plain V-trace takes its weighted one.
  auto adv = config.ppo_clip > 0 ? vt.advantages : vt.pg_advantages;
  if (config.normalize_advantages) adv = normalized_advantages(adv, valid);
  if (config.ppo_clip > 0) {
    const bool decoupled = config.ppo_decoupled && batch.proximal.defined();
    auto anchor_logp =
        decoupled ? dist.log_prob(batch.proximal.to(device, nb).slice(0, 0, T), actions) : behaviour_logp;
    auto ratio = (target_logp - anchor_logp).exp();
    auto clipped = ratio.clamp(1 - config.ppo_clip, 1 + config.ppo_clip);
    auto surrogate = torch::min(ratio * adv, clipped * adv);
    if (decoupled) surrogate = surrogate * (anchor_logp - behaviour_logp).exp().clamp_max(config.vtrace.pg_rho_bar);
    l.pg = -(surrogate * valid).sum() / n;
    l.clip_fraction = (((ratio.detach() - 1).abs() > config.ppo_clip).to(valid.dtype()) * valid).sum() / n;
  } else {
    l.pg = -(adv * target_logp * valid).sum() / n;
    l.clip_fraction = torch::zeros({}, valid.options());
  }
  l.baseline = 0.5 * ((vt.vs - values).pow(2) * valid).sum() / n;
  l.entropy = (target_entropy * valid).sum() / n;
  l.total = l.pg + config.baseline_cost * l.baseline - config.entropy_cost * l.entropy;
  l.mean_rho = (log_rhos.exp() * valid).sum() / n;
  return l;
}

double valid_transitions(const UnrollBatch& batch) {
  const auto T = batch.flags.size(0) - 1;
  auto flags = batch.flags.slice(0, 0, T).to(torch::kInt32);
  return (flags & (kTerminated | kTruncated)).eq(0).sum().item<double>();
}

namespace {
// How far through max_frames the run is, 0 to 1.
double schedule_progress(std::int64_t max_frames, std::int64_t frames) {
  return std::min(1.0, static_cast<double>(frames) / static_cast<double>(std::max<std::int64_t>(1, max_frames)));
}
}  // namespace

double decayed_learning_rate(const LearnerConfig& config, std::int64_t frames) {
  return config.optimizer.learning_rate * (1.0 - schedule_progress(config.max_frames, frames));
}

double scheduled_entropy_cost(const VTraceLossConfig& loss, std::int64_t max_frames, std::int64_t frames) {
  if (loss.entropy_cost_final < 0) return loss.entropy_cost;
  const double progress = schedule_progress(max_frames, frames);
  return loss.entropy_cost + (loss.entropy_cost_final - loss.entropy_cost) * progress;
}

UnrollBatch select_unrolls(const UnrollBatch& batch, const torch::Tensor& index) {
  // Time-major tensors index their second dimension, per-unroll ones their first.
  const auto along = [&](const torch::Tensor& t, int64_t dim) {
    return t.defined() ? t.index_select(dim, index.to(t.device())) : t;
  };
  UnrollBatch part;
  part.obs = along(batch.obs, 1);
  part.actions = along(batch.actions, 1);
  part.policy = along(batch.policy, 1);
  part.rewards = along(batch.rewards, 1);
  part.flags = along(batch.flags, 1);
  part.core_h = along(batch.core_h, 0);
  part.core_c = along(batch.core_c, 0);
  part.versions = along(batch.versions, 0);
  part.slots = along(batch.slots, 0);
  part.proximal = along(batch.proximal, 1);
  part.fixed_vs = along(batch.fixed_vs, 1);
  part.fixed_advantages = along(batch.fixed_advantages, 1);
  return part;
}

torch::Tensor vtrace_pass(AgentNet& model, const PolicyDistribution& dist, torch::optim::Optimizer& optimizer,
                          const UnrollBatch& batch, const LearnerConfig& config, torch::Device device,
                          VTraceLosses& losses, double normalizer, const GradientReduction& reduction,
                          DeviceOptimizerStep* device_step) {
  losses = vtrace_losses(model, dist, batch, config.loss, device, normalizer);
  optimizer.zero_grad();
  if (reduction.before_backward) reduction.before_backward();
  losses.total.backward();
  if (reduction.after_backward) reduction.after_backward();
  return clip_and_step(optimizer, model->parameters(), config.optimizer, device_step);
}

torch::Tensor proximal_policy(AgentNet& model, const UnrollBatch& batch, torch::Device device) {
  torch::NoGradGuard no_grad;
  return vtrace_forward(model, batch, device).policy.to(torch::kFloat32);
}

void fix_targets(AgentNet& model, const PolicyDistribution& dist, UnrollBatch& batch, const VTraceLossConfig& config,
                 torch::Device device) {
  torch::NoGradGuard no_grad;
  const bool nb = device.is_cuda();
  const NetOutput out = vtrace_forward(model, batch, device);
  const auto target = out.policy.to(torch::kFloat32);
  if (config.ppo_clip > 0 && config.ppo_decoupled) batch.proximal = target;
  const auto flags = batch.flags.to(device, nb);
  const auto T = flags.size(0) - 1;
  const auto actions = batch.actions.to(device, nb).slice(0, 0, T);
  const auto behaviour = behaviour_params(batch, dist).to(device, nb).slice(0, 0, T);
  const auto log_rhos = dist.log_prob(target.slice(0, 0, T), actions) - dist.log_prob(behaviour, actions);
  const Transitions tr =
      make_transitions(flags, batch.rewards.to(device, nb), config.discount, config.reward_clip, config.reward_scale);
  const auto values = out.value.to(torch::kFloat32);
  const auto vt = vtrace(log_rhos, tr.discounts, tr.rewards, values.slice(0, 0, T), values[T], tr.valid, config.vtrace);
  batch.fixed_vs = vt.vs;
  batch.fixed_advantages = config.ppo_clip > 0 ? vt.advantages : vt.pg_advantages;
}

torch::Tensor vtrace_update(AgentNet& model, const PolicyDistribution& dist, torch::optim::Optimizer& optimizer,
                            const UnrollBatch& input, const LearnerConfig& config, torch::Device device, double lr,
                            VTraceLosses& losses, double normalizer, const GradientReduction& reduction,
                            DeviceOptimizerStep* device_step) {
  for (auto& group : optimizer.param_groups()) group.options().set_lr(lr);
  // Moments first, so this batch is seen with them (as inference will see the
  // next observations once these weights are published).
  if (model->normalizes_obs()) model->update_obs_normalizer(input.obs.to(device));
  UnrollBatch batch = input;  // tensor handles: no data is copied
  const int epochs = std::max(1, config.epochs);
  const int minibatches = std::max(1, config.minibatches);
  const std::int64_t B = batch.obs.size(1);
  if (B % minibatches != 0)
    throw std::invalid_argument("--minibatches: " + std::to_string(minibatches) + " does not divide the learner's " +
                                std::to_string(B) + " unrolls");
  // The whole batch's frames prepared once when every pass reads all of them.
  const bool cpu = device.is_cpu();
  if (cpu && minibatches == 1 && epochs > 1) batch.obs = model->prepare_obs(batch.obs);
  if (config.loss.fixed_targets)
    fix_targets(model, dist, batch, config.loss, device);  // the proximal policy too, from the same forward
  else if (config.loss.ppo_clip > 0 && config.loss.ppo_decoupled)
    batch.proximal = proximal_policy(model, batch, device);
  torch::Tensor grad_norm;
  if (minibatches == 1) {
    for (int epoch = 0; epoch < epochs; ++epoch) {
      if (device_step) device_step->prepare(lr);
      grad_norm =
          vtrace_pass(model, dist, optimizer, batch, config, device, losses, normalizer, reduction, device_step);
    }
    return grad_norm;
  }
  const std::int64_t share = B / minibatches;
  // On a CPU prepare_obs gathers each minibatch's frames (blocked in the same
  // pass); elsewhere select_unrolls gathers them with the rest.
  UnrollBatch rest = batch;
  if (cpu) rest.obs = torch::Tensor();
  for (int epoch = 0; epoch < epochs; ++epoch) {
    const auto order = torch::randperm(B, torch::TensorOptions().dtype(torch::kInt64));
    for (int m = 0; m < minibatches; ++m) {
      const auto index = order.narrow(0, m * share, share);
      UnrollBatch part = select_unrolls(rest, index);
      if (cpu) part.obs = model->prepare_obs(batch.obs, index);
      if (device_step) device_step->prepare(lr);
      grad_norm = vtrace_pass(model, dist, optimizer, part, config, device, losses, normalizer / minibatches, reduction,
                              device_step);
    }
  }
  return grad_norm;
}

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const OptimizerConfig& c, std::vector<torch::Tensor> params) {
  if (c.name == "adam") {
    return std::make_unique<torch::optim::Adam>(
        params, torch::optim::AdamOptions(c.learning_rate).betas({c.adam_beta1, c.adam_beta2}).eps(c.adam_eps));
  }
  if (c.name == "rmsprop") {
    return std::make_unique<torch::optim::RMSprop>(params, torch::optim::RMSpropOptions(c.learning_rate)
                                                               .alpha(c.rmsprop_alpha)
                                                               .eps(c.rmsprop_eps)
                                                               .momentum(c.rmsprop_momentum));
  }
  throw std::invalid_argument("--optimizer: unknown optimizer '" + c.name + "' (valid: adam, rmsprop)");
}

VTraceLearner::VTraceLearner(AgentNet model, const ActionSpec& action, const LearnerConfig& config,
                             TrajectoryStore& store, ParamPublisher& publisher, torch::Device device)
    : model_(std::move(model)),
      dist_(make_policy_distribution(action)),
      config_(config),
      base_loss_(config.loss),
      store_(store),
      publisher_(publisher),
      device_(device) {
  model_->to(device_);
  model_->train();
  optimizer_ = make_optimizer(config_.optimizer, model_->parameters());
  // Learner batches in page-locked memory, so that copying them to the GPU is asynchronous.
  if (device_.is_cuda()) store_.pin_batches(true);
}

void VTraceLearner::publish() { publisher_.publish(*model_, steps_); }

bool VTraceLearner::step(LearnerStats& stats) {
  if (!store_.next_batch(config_.batch_size, batch_)) return false;
  update(batch_, stats);
  return true;
}

void VTraceLearner::update(const UnrollBatch& batch, LearnerStats& stats) {
  const auto T = batch.obs.size(0) - 1;
  const auto B = batch.obs.size(1);
  // Linear decay to zero over max_frames of consumed experience.
  const double lr = decayed_learning_rate(config_, frames_);
  config_.loss.entropy_cost = scheduled_entropy_cost(base_loss_, config_.max_frames, frames_);
  VTraceLosses l;
  const double grad_norm = vtrace_update(model_, *dist_, *optimizer_, batch, config_, device_, lr, l).item<double>();
  ++steps_;
  frames_ += T * B;
  publish();

  stats.total_loss = l.total.item<double>();
  stats.pg_loss = l.pg.item<double>();
  stats.baseline_loss = l.baseline.item<double>();
  stats.entropy = l.entropy.item<double>();
  stats.mean_rho = l.mean_rho.item<double>();
  stats.clip_fraction = l.clip_fraction.item<double>();
  stats.grad_norm = grad_norm;
  stats.learning_rate = lr;
  stats.entropy_cost = config_.loss.entropy_cost;
  stats.policy_lag = static_cast<double>(steps_ - 1) - batch.versions.to(torch::kFloat64).mean().item<double>();
}

}  // namespace seedrl
