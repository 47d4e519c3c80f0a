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

void SacLearner::update(const r2d2::ReplaySample& sample, SacLearnerStats& stats) {
  const UnrollBatch& seq = sample.batch;
  UnrollBatch on_device = seq;
  const bool nb = device_.is_cuda();
  on_device.obs = seq.obs.to(device_, nb);
  on_device.actions = seq.actions.to(device_, nb);
  TransitionBatch batch = make_transitions(on_device, n_step_, config_.loss.discount, low_, high_, /*starts=*/1,
                                           config_.loss.reward_clip, config_.loss.reward_scale);
  const std::int64_t n = batch.obs.size(0);
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(
      seed_ ^ (0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(steps_ + 1)));
  if (n > 0) stats.update = updater_.update(batch, generator);
  ++steps_;
  frames_ += n;
  stats.transitions = static_cast<double>(n);
  stats.policy_lag = static_cast<double>(steps_ - 1) - seq.versions.to(torch::kFloat64).mean().item<double>();
  publish();
}

bool SacLearner::step(SacLearnerStats& stats) {
  if (!replay_.sample(config_.batch_size, sample_)) return false;
  update(sample_, stats);
  return true;
}

}  // namespace seedrl::sac
