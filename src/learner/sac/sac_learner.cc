#include "seedrl/learner/sac/sac_learner.h"

#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>

#include "seedrl/learner/sac/transitions.h"

namespace seedrl::sac {

namespace {

SacSettings settings_of(const SacConfig& sac, const LearnerConfig& config, const ModelConfig& model, int action_dims,
                        torch::Device device) {
  SacSettings s;
  s.critic_threads = device.is_cuda() ? 1 : sac.critic_threads;
  s.tau = sac.tau;
  s.target_entropy = sac.target_entropy_for(action_dims);
  s.learning_rate = config.optimizer.learning_rate;
  s.adam_eps = config.optimizer.adam_eps;
  s.learn_temperature = sac.learn_temperature;
  s.bf16_matmuls = model.precision == "bf16";
  return s;
}

SacNet on_device(SacNet net, torch::Device device) {
  net->to(device);
  return net;
}

}  // namespace

SacLearner::SacLearner(const EnvSpec& spec, const ModelConfig& model, const SacConfig& sac, const LearnerConfig& config,
                       int n_step, r2d2::Replay& replay, ParamPublisher& publisher, torch::Device device,
                       std::uint64_t seed)
    : net_(on_device(SacNet(spec, model, sac.initial_temperature), device)),
      updater_(net_, settings_of(sac, config, model, spec.action.dim, device)),
      config_(config),
      n_step_(n_step),
      replay_(replay),
      publisher_(publisher),
      device_(device),
      seed_(seed),
      low_(spec.action.low),
      high_(spec.action.high) {}

void SacLearner::publish() { publisher_.publish(*net_->actor, steps_); }

TransitionBatch SacLearner::transitions(const r2d2::ReplaySample& sample) const {
  UnrollBatch on_device = sample.batch;
  const bool nb = device_.is_cuda();
  on_device.obs = sample.batch.obs.to(device_, nb);
  on_device.actions = sample.batch.actions.to(device_, nb);
  return make_transitions(on_device, n_step_, config_.loss.discount, low_, high_, /*starts=*/1,
                          config_.loss.reward_clip, config_.loss.reward_scale);
}

at::Generator SacLearner::noise_generator() const {
  return at::make_generator<at::CPUGeneratorImpl>(seed_ ^
                                                  (0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(steps_ + 1)));
}

void SacLearner::record(const r2d2::ReplaySample& sample, std::int64_t n, SacLearnerStats& stats) {
  ++steps_;
  frames_ += n;
  stats.transitions = static_cast<double>(n);
  stats.policy_lag = static_cast<double>(steps_ - 1) - sample.batch.versions.to(torch::kFloat64).mean().item<double>();
}

void SacLearner::update(const r2d2::ReplaySample& sample, SacLearnerStats& stats) {
  finish();
  const TransitionBatch batch = transitions(sample);
  const std::int64_t n = batch.obs.size(0);
  at::Generator generator = noise_generator();
  if (n > 0) stats.update = updater_.update(batch, generator);
  record(sample, n, stats);
  publish();
}

bool SacLearner::step(SacLearnerStats& stats) {
  // The last update's actor step and publishing on the second critic thread,
  // beside this step's sample, its transitions and the critics' values of
  // its actions here.
  bool sampled = false;
  TransitionBatch batch;
  updater_.finish_actor_step([this] { publish(); },
                             [&] {
                               sampled = replay_.sample(config_.batch_size, sample_);
                               if (sampled) batch = transitions(sample_);
                               if (sampled && batch.obs.size(0) > 0) updater_.take_critic_values(batch);
                             });
  if (!sampled) return false;
  const std::int64_t n = batch.obs.size(0);
  at::Generator generator = noise_generator();
  if (n > 0) stats.update = updater_.update_but_actor_step(batch, generator);
  record(sample_, n, stats);
  if (!updater_.actor_step_pending()) publish();  // no transitions, so no step to publish after
  return true;
}

void SacLearner::finish() {
  if (updater_.actor_step_pending()) updater_.finish_actor_step([this] { publish(); });
}

}  // namespace seedrl::sac
