#include "seedrl/trainer/sac_algorithm.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>
#include <torch/torch.h>

#include "seedrl/inference/inference_server.h"
#include "seedrl/inference/sac_step.h"
#include "seedrl/learner/r2d2/replay.h"
#include "seedrl/learner/r2d2/replay_inserter.h"
#include "seedrl/trainer/placement.h"
#include "seedrl/trainer/replay_checkpoint.h"
#include "seedrl/trainer/replay_scalars.h"
#include "seedrl/trainer/run_checkpoint.h"
#include "seedrl/trainer/run_ending.h"
#include "seedrl/trainer/run_monitor.h"
#include "seedrl/trainer/sac_setup.h"

namespace seedrl {

SacAlgorithm::SacAlgorithm(const TrainConfig& config) : config_(config) { validate_sac_config(config_); }

SacAlgorithm::~SacAlgorithm() = default;

UnrollLayout SacAlgorithm::unroll_layout(const EnvSpec& spec) const { return sac_sequence_layout(config_, spec); }

void SacAlgorithm::build(const PipelineContext& ctx) {
  spec_ = ctx.spec;
  store_ = &ctx.store;
  publisher_ = &ctx.publisher;
  frames_ = &ctx.frames;
  replay_ = std::make_unique<r2d2::Replay>(unroll_layout(ctx.spec), sac_replay_config(config_));
  replay_scalars_ = std::make_unique<ReplayScalars>(*replay_);
  learner_ =
      std::make_unique<sac::SacLearner>(ctx.spec, config_.model, config_.sac, config_.learner, config_.r2d2.n_step,
                                        *replay_, ctx.publisher, ctx.placement.learner.front(), config_.seed);
  checkpoint_ = std::make_unique<RunCheckpoint<sac::SacLearner>>(config_, *learner_);
  replay_checkpoint_ = std::make_unique<ReplayCheckpoint>(config_, *replay_);
  // Uniform replay: every transition enters with the same priority.
  inserter_ = std::make_unique<r2d2::ReplayInserter>(ctx.store, *replay_, [](const UnrollBatch&) { return 1.0; });
}

CheckpointCounters SacAlgorithm::resume(bool resume) {
  const CheckpointCounters counters = checkpoint_->resume(resume);
  if (resume && finished_before(counters.frames, config_.learner.max_frames)) return counters;
  replay_checkpoint_->resume(resume && std::filesystem::exists(checkpoint_->path()), counters.learner_steps);
  return counters;
}

void SacAlgorithm::save(const CheckpointCounters& run) {
  learner_->finish();  // the last update whole
  replay_checkpoint_->save(learner_->steps(), [&] { checkpoint_->save(run); });
}

std::string SacAlgorithm::checkpoint_path() const { return checkpoint_->path(); }

void SacAlgorithm::publish() {
  learner_->finish();
  learner_->publish();
}

std::string SacAlgorithm::describe() const {
  const SacConfig& s = config_.sac;
  const R2D2Config& r = config_.r2d2;
  return fmt::format(
      "sac: replay {} transitions, {:.1f} MiB | batch {} | {:g} samples per step ({:g} updates per step) | n {} | "
      "discount {} | tau {} | temperature {} ({}, target entropy {}) | {} random steps | learning rate {}",
      r.replay_capacity, replay_->byte_size() / 1048576.0, config_.learner.batch_size, r.replay_ratio,
      r.replay_ratio / config_.learner.batch_size, r.n_step, config_.learner.loss.discount, s.tau,
      s.initial_temperature, s.learn_temperature ? "learned" : "fixed", s.target_entropy_for(spec_->action.dim),
      s.random_steps, config_.learner.optimizer.learning_rate);
}

std::unique_ptr<DeviceInference> SacAlgorithm::make_inference(RequestBatcher& batcher, torch::Device device,
                                                              int num_slots) {
  const std::uint64_t seed = config_.seed + static_cast<std::uint64_t>(++servers_made_) * 0x9E3779B97F4A7C15ull;
  const EnvSpec spec = *spec_;
  const ModelConfig model = config_.model;
  auto step = std::make_unique<sac::SacStep>([spec, model] { return SacActor(spec, model); }, spec.action, frames_,
                                             config_.sac.random_steps, seed);
  return std::make_unique<InferenceServer>(batcher, store_, *publisher_, std::move(step), num_slots,
                                           config_.inference_threads, device);
}

void SacAlgorithm::release_slot(int slot, TrajectoryStore& store, InferenceFleet&) { store.drop_partial(slot); }

void SacAlgorithm::start_stages() { inserter_->start(); }

void SacAlgorithm::request_stop_stages() { replay_->close(); }

void SacAlgorithm::join_stages() { inserter_->join(); }

bool SacAlgorithm::stages_failed() const { return inserter_ && inserter_->failed(); }

bool SacAlgorithm::learner_step() {
  if (!learner_->step(step_stats_)) return false;
  const sac::SacStats& u = step_stats_.update;
  checkpoint_->check_finite(u.critic_loss + u.actor_loss + u.temperature_loss, "loss");
  last_.set(step_stats_);
  return true;
}

std::int64_t SacAlgorithm::learner_steps() const { return learner_->steps(); }

void SacAlgorithm::add_scalars(Scalars& out) {
  const std::optional<sac::SacLearnerStats> stepped = last_.get();
  const sac::SacLearnerStats s = stepped.value_or(sac::SacLearnerStats{});
  Scalars learner_scalars{{"critic_loss", s.update.critic_loss},
                          {"actor_loss", s.update.actor_loss},
                          {"temperature_loss", s.update.temperature_loss},
                          {"temperature", s.update.alpha},
                          {"entropy", s.update.entropy},
                          {"q_mean", s.update.q_mean},
                          {"learning_rate", config_.learner.optimizer.learning_rate},
                          {"policy_lag", s.policy_lag}};
  if (!stepped)
    for (auto& [key, value] : learner_scalars) value = kNoValue;  // no step yet: no loss, not a loss of 0
  out.merge(learner_scalars);
  replay_scalars_->add(out);
}

}  // namespace seedrl
