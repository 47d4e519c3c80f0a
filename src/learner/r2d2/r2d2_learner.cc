#include "seedrl/learner/r2d2/r2d2_learner.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <torch/torch.h>

#include "seedrl/env/env_step.h"
#include "seedrl/learner/batch_shards.h"
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

torch::Tensor sequence_priority_tensor(const torch::Tensor& td_abs, const torch::Tensor& valid, double eta) {
  auto d = (td_abs * valid).to(torch::kFloat64);
  auto count = valid.to(torch::kFloat64).sum(0);
  auto mean = d.sum(0) / count.clamp_min(1.0);
  auto mx = std::get<0>(d.max(0));
  return eta * mx + (1 - eta) * mean;
}

std::vector<double> sequence_priorities(const torch::Tensor& td_abs, const torch::Tensor& valid, double eta) {
  auto p = sequence_priority_tensor(td_abs, valid, eta).cpu().contiguous();
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

R2D2Losses r2d2_losses(QNet& online, QNet& target, const UnrollBatch& b, const torch::Tensor& weights,
                       const R2D2Config& r2d2, const VTraceLossConfig& loss_config, torch::Device device,
                       std::int64_t normalizer) {
  const bool nb = device.is_cuda();
  const auto L = b.obs.size(0);
  const int burn = std::clamp<int>(r2d2.burn_in, 0, static_cast<int>(L) - 2);

  auto obs = b.obs.to(device, nb);
  auto flags = b.flags.to(device, nb);
  auto first = (flags.to(torch::kInt32) & kFirst).ne(0);
  auto prev_action = b.policy.to(device, nb).select(-1, 0);  // stored previous action, -1 at starts
  auto rewards = b.rewards.to(device, nb);
  auto actions = b.actions.to(device, nb).select(-1, 0).to(torch::kLong);
  CoreState online_state, target_state;
  if (b.core_h.defined()) {
    online_state = {b.core_h.to(device, nb), b.core_c.to(device, nb)};
    target_state = online_state;
  }
  auto window = [&](const torch::Tensor& x) { return x.slice(0, burn, L); };
  if (burn > 0 && online->has_core()) {
    // Burn-in: replay the stored state through the prefix, no gradients.
    torch::NoGradGuard no_grad;
    auto prefix = [&](const torch::Tensor& x) { return x.slice(0, 0, burn); };
    online_state =
        online->forward(prefix(obs), prefix(first), prefix(prev_action), prefix(rewards), online_state).state;
    target_state =
        target->forward(prefix(obs), prefix(first), prefix(prev_action), prefix(rewards), target_state).state;
  }
  QOutput q_online = online->forward(window(obs), window(first), window(prev_action), window(rewards), online_state);
  torch::Tensor q_target;
  {
    torch::NoGradGuard no_grad;
    q_target = target->forward(window(obs), window(first), window(prev_action), window(rewards), target_state).q;
  }
  auto r = shape_rewards(window(rewards), loss_config.reward_clip, loss_config.reward_scale);
  NStepTargets tg = n_step_double_q_targets(r, window(flags), q_online.q.detach(), q_target, loss_config.discount,
                                            r2d2.n_step, /*value_rescaling=*/true);
  const auto T = tg.targets.size(0);
  auto q_sa = q_online.q.slice(0, 0, T).gather(-1, window(actions).slice(0, 0, T).unsqueeze(-1)).squeeze(-1);
  auto delta = tg.targets - q_sa;  // [T, B]
  auto count = tg.valid.sum(0).clamp_min(1.0);
  auto per_seq = 0.5 * (delta.pow(2) * tg.valid).sum(0) / count;  // [B]
  R2D2Losses out;
  out.loss = (weights.to(device, nb) * per_seq).sum() / static_cast<double>(normalizer);
  out.td_abs = delta.detach().abs();
  out.valid = tg.valid;
  out.q_sa = q_sa.detach();
  return out;
}

R2D2Learner::R2D2Learner(const ModelFactory& make_model, const R2D2Config& r2d2, const LearnerConfig& config,
                         Replay& replay, ParamPublisher& publisher, std::vector<torch::Device> devices,
                         DataParallelOptions options)
    : r2d2_(r2d2), config_(config), replay_(replay), publisher_(publisher), options_(options) {
  const int n = static_cast<int>(devices.size());
  check_batch_splits(config_.batch_size, n, "sequences");
  replicas_ = std::make_unique<ReplicaSet<QNet>>(make_model, 2, std::move(devices), config_.optimizer, options_);
  // The target network starts as the online one.
  for (int r = 0; r < n; ++r) copy_parameters(*replica_model(r), *replica_target(r));
  results_.resize(n);
}

R2D2Learner::~R2D2Learner() = default;

QNet& R2D2Learner::model() { return replicas_->net(0, 0); }
QNet& R2D2Learner::target() { return replicas_->net(0, 1); }
QNet& R2D2Learner::replica_model(int rank) { return replicas_->net(rank, 0); }
QNet& R2D2Learner::replica_target(int rank) { return replicas_->net(rank, 1); }
torch::optim::Optimizer& R2D2Learner::optimizer() { return replicas_->optimizer(0); }

void R2D2Learner::publish() { publisher_.publish(*model(), steps_); }

void R2D2Learner::sync_replicas() { replicas_->sync_from_first(steps_); }

void R2D2Learner::verify_replicas() { replicas_->verify(steps_); }

void R2D2Learner::replica_update(int rank) {
  QNet& online = replica_model(rank);
  QNet& target = replica_target(rank);
  Result& out = results_[rank];
  const ReplaySample& sample = *job_.sample;
  const std::int64_t B = sample.batch.obs.size(1);
  const ShardRange range = shard_range(B, rank, replicas());
  const UnrollBatch shard = replicas() == 1 ? sample.batch : shard_of(sample.batch, range);
  const torch::Tensor weights = sample.weights.narrow(0, range.start, range.count);
  R2D2Losses l = r2d2_losses(online, target, shard, weights, r2d2_, config_.loss, replicas_->device(rank), B);

  replicas_->optimizer(rank).zero_grad();
  replicas_->prepare_gradients(rank);
  l.loss.backward();
  replicas_->reduce_gradients(rank);  // every replica now holds the summed gradient
  const torch::Tensor norm = replicas_->clip_and_step(rank, config_.optimizer, config_.optimizer.learning_rate);
  if (r2d2_.target_update_period > 0 && job_.step % r2d2_.target_update_period == 0) copy_parameters(*online, *target);

  // Everything the host needs from this update in one copy: the shard's
  // priorities, then its loss, TD and Q sums, valid count and grad norm.
  auto f64 = [](const torch::Tensor& t) { return t.to(torch::kFloat64).reshape({1}); };
  auto host =
      torch::cat({sequence_priority_tensor(l.td_abs, l.valid, r2d2_.priority_eta), f64(l.loss),
                  f64((l.td_abs * l.valid).sum()), f64((l.q_sa * l.valid).sum()), f64(l.valid.sum()), f64(norm)})
          .cpu()
          .contiguous();
  const double* v = host.data_ptr<double>();
  const std::int64_t n = host.size(0) - 5;
  out.priorities.assign(v, v + n);
  for (double& p : out.priorities) p = std::max(p, 1e-6);  // every sequence stays reachable
  out.loss = v[n];
  out.td_sum = v[n + 1];
  out.q_sum = v[n + 2];
  out.valid = v[n + 3];
  out.grad_norm = v[n + 4];
}

std::vector<double> R2D2Learner::update(const ReplaySample& sample, R2D2Stats& stats) {
  const UnrollBatch& b = sample.batch;
  const auto L = b.obs.size(0);
  const auto B = b.obs.size(1);
  if (B < replicas())
    throw std::invalid_argument("--batch-size: a batch of " + std::to_string(B) + " sequences cannot feed " +
                                std::to_string(replicas()) + " learner replicas");
  const int burn = std::clamp<int>(r2d2_.burn_in, 0, static_cast<int>(L) - 2);
  const std::int64_t T = L - burn - 1;
  job_.sample = &sample;
  job_.step = steps_ + 1;
  replicas_->run_update(job_.step, [this](int rank) { replica_update(rank); });
  ++steps_;
  frames_ += T * B;
  publish();

  std::vector<double> priorities;
  priorities.reserve(static_cast<std::size_t>(B));
  double loss = 0, td = 0, q = 0, valid = 0;
  for (const Result& r : results_) {
    priorities.insert(priorities.end(), r.priorities.begin(), r.priorities.end());
    loss += r.loss;  // each replica's share of the batch's mean loss
    td += r.td_sum;
    q += r.q_sum;
    valid += r.valid;
  }
  stats.loss = loss;
  stats.td_error = td / std::max(1.0, valid);
  stats.q_mean = q / std::max(1.0, valid);
  stats.grad_norm = results_.front().grad_norm;
  stats.learning_rate = config_.optimizer.learning_rate;
  double psum = 0;
  for (double p : priorities) psum += p;
  stats.sample_priority_mean = psum / static_cast<double>(priorities.size());
  stats.importance_weight_mean = sample.weights.mean().item<double>();
  stats.policy_lag = static_cast<double>(steps_ - 1) - b.versions.to(torch::kFloat64).mean().item<double>();
  return priorities;
}

bool R2D2Learner::step(R2D2Stats& stats) {
  if (!replay_.sample(config_.batch_size, sample_)) return false;
  const std::vector<double> priorities = update(sample_, stats);
  // A non-finite loss leaves the replay's priorities as they were: the caller
  // (R2D2Algorithm through RunCheckpoint::check_finite) ends the run.
  if (std::isfinite(stats.loss)) replay_.update_priorities(sample_, priorities);
  return true;
}

}  // namespace seedrl::r2d2
