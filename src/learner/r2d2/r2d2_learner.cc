#include "seedrl/learner/r2d2/r2d2_learner.h"

#include <algorithm>
#include <stdexcept>

#include <torch/torch.h>

#include "seedrl/inference/env_step.h"
#include "seedrl/learner/r2d2/value_rescaling.h"
#include "seedrl/learner/reward_shaping.h"
#include "seedrl/learner/vtrace_learner.h"

namespace seedrl::r2d2 {

torch::Tensor rescale(const torch::Tensor& x) {
  const double eps = kValueRescalingEpsilon;
  auto ax = x.abs();
  return torch::sign(x) * (ax / ((ax + 1).sqrt() + 1)) + eps * x;
}

torch::Tensor inverse_rescale(const torch::Tensor& x) {
  // The cancellation-free form of value_rescaling.h's inverse_value_rescale.
  const double eps = kValueRescalingEpsilon;
  auto ax = x.abs();
  auto a = (1 + 4 * eps * (ax + 1 + eps)).sqrt();
  auto q = 2 * (ax + 1 + eps) / (a + 1);
  auto q_minus_1 = 2 * ax * (1 - 2 * eps / (a + 1 + 2 * eps)) / (a + 1);
  return torch::sign(x) * q_minus_1 * (q + 1);
}

NStepTargets n_step_double_q_targets(const torch::Tensor& rewards, const torch::Tensor& flags_in,
                                     const torch::Tensor& q_online, const torch::Tensor& q_target, double discount,
                                     int n, bool value_rescaling) {
  if (n < 1) throw std::invalid_argument("--n-step: must be at least 1");
  const auto L = rewards.size(0);
  const auto T = L - 1;
  auto flags = flags_in.to(torch::kInt32);
  // Bootstrap value of every entry: target net at the online net's argmax.
  auto best = q_online.argmax(-1, /*keepdim=*/true);
  auto v = q_target.gather(-1, best).squeeze(-1);  // [L, B]
  if (value_rescaling) v = inverse_rescale(v);
  auto terminated = (flags & kTerminated).ne(0).to(rewards.dtype());
  auto truncated = (flags & kTruncated).ne(0).to(rewards.dtype());

  NStepTargets out;
  out.valid = (flags.slice(0, 0, T) & (kTerminated | kTruncated)).eq(0).to(rewards.dtype());
  auto running = out.valid.clone();
  auto sum = torch::zeros_like(out.valid);
  auto boot = torch::zeros_like(out.valid);
  auto t_index = torch::arange(T, torch::TensorOptions().dtype(torch::kLong).device(rewards.device()));
  double gk = 1.0;  // gamma^(k-1)
  for (int k = 1; k <= n; ++k) {
    auto j = (t_index + k).clamp_max(L - 1);
    auto r = rewards.index_select(0, j);
    auto term = terminated.index_select(0, j);
    auto trunc = truncated.index_select(0, j);
    auto vj = v.index_select(0, j);
    sum = sum + running * gk * r;
    gk *= discount;  // gamma^k
    // The window ends at entry j when j is the last entry or the n-th step.
    auto window_end = ((t_index + k) >= (L - 1)).to(rewards.dtype()).unsqueeze(1);
    if (k == n) window_end = torch::ones_like(window_end);
    auto stop_boot = running * (1 - term) * torch::clamp_max(trunc + window_end, 1.0);
    boot = boot + stop_boot * gk * vj;
    running = running * (1 - term) * (1 - trunc) * (1 - window_end);
  }
  auto g = sum + boot;
  out.targets = value_rescaling ? rescale(g) : g;
  return out;
}

std::vector<double> sequence_priorities(const torch::Tensor& td_abs, const torch::Tensor& valid, double eta) {
  auto d = (td_abs * valid).to(torch::kFloat64).cpu();
  auto m = valid.to(torch::kFloat64).cpu();
  auto count = m.sum(0);
  auto mean = d.sum(0) / count.clamp_min(1.0);
  auto mx = std::get<0>(d.max(0));
  auto p = (eta * mx + (1 - eta) * mean).contiguous();
  const double* pp = p.data_ptr<double>();
  return std::vector<double>(pp, pp + p.size(0));
}

double acting_priority(const UnrollBatch& b, int burn_in, const VTraceLossConfig& loss, int n, double eta) {
  torch::NoGradGuard no_grad;
  const auto L = b.obs.size(0);
  const int burn = std::clamp<int>(burn_in, 0, static_cast<int>(L) - 2);
  auto window = [&](const torch::Tensor& x) { return x.slice(0, burn, L); };
  auto q = window(b.policy).narrow(-1, 1, b.policy.size(-1) - 1);  // [L', 1, A]
  auto r = shape_rewards(window(b.rewards), loss.reward_clip, loss.reward_scale);
  NStepTargets tg = n_step_double_q_targets(r, window(b.flags), q, q, loss.discount, n, /*value_rescaling=*/true);
  const auto T = tg.targets.size(0);
  auto taken = window(b.actions).slice(0, 0, T).to(torch::kLong);  // [T, 1, 1]
  auto q_sa = q.slice(0, 0, T).gather(-1, taken).squeeze(-1);
  return std::max(sequence_priorities((tg.targets - q_sa).abs(), tg.valid, eta)[0], 1e-6);
}

R2D2Learner::R2D2Learner(QNet online, QNet target, const R2D2Config& r2d2, const LearnerConfig& config,
                         Replay& replay, ParamPublisher& publisher, torch::Device device)
    : online_(std::move(online)),
      target_(std::move(target)),
      r2d2_(r2d2),
      config_(config),
      replay_(replay),
      publisher_(publisher),
      device_(device) {
  online_->to(device_);
  target_->to(device_);
  online_->train();
  target_->eval();
  for (auto& p : target_->parameters()) p.set_requires_grad(false);
  sync_target();
  optimizer_ = make_optimizer(config_.optimizer, online_->parameters());
}

void R2D2Learner::publish() { publisher_.publish(*online_, steps_); }

void R2D2Learner::sync_target() { copy_parameters(*online_, *target_); }

bool R2D2Learner::step(R2D2Stats& stats) {
  if (!replay_.sample(config_.batch_size, sample_)) return false;
  const UnrollBatch& b = sample_.batch;
  const bool nb = device_.is_cuda();
  const auto L = b.obs.size(0);
  const auto B = b.obs.size(1);
  const int burn = std::clamp<int>(r2d2_.burn_in, 0, static_cast<int>(L) - 2);

  auto obs = b.obs.to(device_, nb);
  auto flags = b.flags.to(device_, nb);
  auto first = (flags.to(torch::kInt32) & kFirst).ne(0);
  auto prev_action = b.policy.to(device_, nb).select(-1, 0);  // stored previous action, -1 at starts
  auto rewards = b.rewards.to(device_, nb);
  auto actions = b.actions.to(device_, nb).select(-1, 0).to(torch::kLong);
  CoreState online_state, target_state;
  if (b.core_h.defined()) {
    online_state = {b.core_h.to(device_, nb), b.core_c.to(device_, nb)};
    target_state = online_state;
  }
  auto window = [&](const torch::Tensor& x) { return x.slice(0, burn, L); };
  if (burn > 0 && online_->has_core()) {
    // Burn-in: replay the stored state through the prefix, no gradients.
    torch::NoGradGuard no_grad;
    auto prefix = [&](const torch::Tensor& x) { return x.slice(0, 0, burn); };
    online_state = online_->forward(prefix(obs), prefix(first), prefix(prev_action), prefix(rewards), online_state).state;
    target_state = target_->forward(prefix(obs), prefix(first), prefix(prev_action), prefix(rewards), target_state).state;
  }
  QOutput online = online_->forward(window(obs), window(first), window(prev_action), window(rewards), online_state);
  torch::Tensor q_target;
  {
    torch::NoGradGuard no_grad;
    q_target = target_->forward(window(obs), window(first), window(prev_action), window(rewards), target_state).q;
  }
  auto r = shape_rewards(window(rewards), config_.loss.reward_clip, config_.loss.reward_scale);
  NStepTargets tg = n_step_double_q_targets(r, window(flags), online.q.detach(), q_target, config_.loss.discount,
                                            r2d2_.n_step, /*value_rescaling=*/true);
  const auto T = tg.targets.size(0);
  auto q_sa = online.q.slice(0, 0, T).gather(-1, window(actions).slice(0, 0, T).unsqueeze(-1)).squeeze(-1);
  auto delta = tg.targets - q_sa;  // [T, B]
  auto count = tg.valid.sum(0).clamp_min(1.0);
  auto per_seq = 0.5 * (delta.pow(2) * tg.valid).sum(0) / count;  // [B]
  auto weights = sample_.weights.to(device_, nb);
  auto loss = (weights * per_seq).mean();

  optimizer_->zero_grad();
  loss.backward();
  double grad_norm = 0;
  if (config_.optimizer.max_grad_norm > 0)
    grad_norm = torch::nn::utils::clip_grad_norm_(online_->parameters(), config_.optimizer.max_grad_norm);
  optimizer_->step();
  ++steps_;
  frames_ += T * B;
  if (r2d2_.target_update_period > 0 && steps_ % r2d2_.target_update_period == 0) sync_target();
  publish();

  auto td_abs = delta.detach().abs();
  std::vector<double> priorities = sequence_priorities(td_abs, tg.valid, r2d2_.priority_eta);
  for (double& p : priorities) p = std::max(p, 1e-6);  // every sequence stays reachable
  replay_.update_priorities(sample_, priorities);

  const auto n_valid = tg.valid.sum().clamp_min(1.0);
  stats.loss = loss.item<double>();
  stats.td_error = ((td_abs * tg.valid).sum() / n_valid).item<double>();
  stats.q_mean = ((q_sa.detach() * tg.valid).sum() / n_valid).item<double>();
  stats.grad_norm = grad_norm;
  stats.learning_rate = config_.optimizer.learning_rate;
  double psum = 0;
  for (double p : priorities) psum += p;
  stats.sample_priority_mean = psum / static_cast<double>(priorities.size());
  stats.importance_weight_mean = sample_.weights.mean().item<double>();
  stats.policy_lag = static_cast<double>(steps_ - 1) - b.versions.to(torch::kFloat64).mean().item<double>();
  return true;
}

}  // namespace seedrl::r2d2
