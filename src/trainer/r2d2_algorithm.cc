#include "seedrl/trainer/r2d2_algorithm.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <torch/torch.h>

#include "seedrl/inference/epsilon_greedy.h"
#include "seedrl/inference/inference_fleet.h"
#include "seedrl/inference/q_value_step.h"
#include "seedrl/learner/r2d2/r2d2_learner.h"
#include "seedrl/learner/r2d2/replay.h"
#include "seedrl/learner/r2d2/replay_inserter.h"
#include "seedrl/trainer/learner_cpus.h"
#include "seedrl/trainer/placement.h"
#include "seedrl/trainer/r2d2_setup.h"
#include "seedrl/trainer/replay_checkpoint.h"
#include "seedrl/trainer/replay_scalars.h"
#include "seedrl/trainer/run_checkpoint.h"
#include "seedrl/trainer/run_ending.h"
#include "seedrl/trainer/run_monitor.h"

namespace seedrl {

R2D2Algorithm::R2D2Algorithm(const TrainConfig& config) : config_(config) { validate_r2d2_config(config_); }

R2D2Algorithm::~R2D2Algorithm() = default;

UnrollLayout R2D2Algorithm::unroll_layout(const EnvSpec& spec) const { return r2d2_sequence_layout(config_, spec); }

void R2D2Algorithm::build(const PipelineContext& ctx) {
  spec_ = ctx.spec;
  store_ = &ctx.store;
  publisher_ = &ctx.publisher;
  frames_ = &ctx.frames;
  train_envs_ = ctx.train_envs;
  remote_envs_ = ctx.remote_envs;
  r2d2::ReplayConfig replay_config = r2d2_replay_config(config_);
  replay_config.num_actions = ctx.spec.action.num_actions;  // R2D2's actions are discrete
  replay_ = std::make_unique<r2d2::Replay>(unroll_layout(ctx.spec), replay_config);
  replay_scalars_ = std::make_unique<ReplayScalars>(*replay_);
  DataParallelOptions options;
  options.learner_cpus = ctx.cpus.learner;
  options.checksum_every = config_.replica_checksum_every;
  const EnvSpec spec = ctx.spec;
  const ModelConfig model = config_.model;
  learner_ =
      std::make_unique<r2d2::R2D2Learner>([spec, model] { return QNet(spec, model); }, config_.r2d2, config_.learner,
                                          *replay_, ctx.publisher, ctx.placement.learner, options);
  checkpoint_ = std::make_unique<RunCheckpoint<r2d2::R2D2Learner>>(
      config_, *learner_, CheckpointExtrasIn{{"target", learner_->target().ptr().get()}});
  replay_checkpoint_ = std::make_unique<ReplayCheckpoint>(config_, *replay_);
  inserter_ = std::make_unique<r2d2::ReplayInserter>(
      ctx.store, *replay_, [this, r2d2 = config_.r2d2, loss = config_.learner.loss](const UnrollBatch& one) {
        const double p = r2d2::acting_priority(one, r2d2.burn_in, loss, r2d2.n_step, r2d2.priority_eta);
        // From the acting Q-values: non-finite once the published weights are.
        checkpoint_->check_finite(p, "weights");
        return p;
      });
}

CheckpointCounters R2D2Algorithm::resume(bool resume) {
  const CheckpointCounters counters = checkpoint_->resume(resume);
  if (resume && finished_before(counters.frames, config_.learner.max_frames)) return counters;
  replay_checkpoint_->resume(resume && std::filesystem::exists(checkpoint_->path()), counters.learner_steps);
  return counters;
}

void R2D2Algorithm::save(const CheckpointCounters& run) {
  replay_checkpoint_->save(learner_->steps(), [&] { checkpoint_->save(run); });
}

std::string R2D2Algorithm::checkpoint_path() const { return checkpoint_->path(); }

void R2D2Algorithm::publish() { learner_->publish(); }

std::string R2D2Algorithm::describe() const {
  const R2D2Config& rc = config_.r2d2;
  return fmt::format(
      "r2d2: replay {} sequences of {} steps, {:.1f} MiB | batch {} x ({} burn-in + {}) | n {} | "
      "discount {} | learning rate {}",
      rc.replay_capacity, replay_->layout().length, replay_->byte_size() / 1048576.0, config_.learner.batch_size,
      rc.burn_in, config_.unroll_length, rc.n_step, config_.learner.loss.discount,
      config_.learner.optimizer.learning_rate);
}

std::unique_ptr<DeviceInference> R2D2Algorithm::make_inference(RequestBatcher& batcher, torch::Device device,
                                                               int num_slots) {
  // Each device's selector covers every slot, seeded apart: a local slot is
  // served by one device, but a remote slot may meet another device in its
  // next session, and must not replay the random numbers it drew there.
  const R2D2Config& rc = config_.r2d2;
  const std::uint64_t seed = config_.seed + static_cast<std::uint64_t>(servers_made_++) * 0x9E3779B97F4A7C15ull;
  auto selector =
      std::make_unique<r2d2::EpsilonGreedySelector>(spec_->action.num_actions, train_envs_, rc.eval_envs, rc.epsilon,
                                                    rc.epsilon_alpha, rc.eval_epsilon, seed, remote_envs_);
  const EnvSpec spec = *spec_;
  const ModelConfig model = config_.model;
  return r2d2::make_q_inference_server(
      batcher, *store_, *publisher_, [spec, model] { return QNet(spec, model); }, std::move(selector), train_envs_,
      num_slots, config_.inference_threads, device);
}

void R2D2Algorithm::release_slot(int slot, TrajectoryStore& store, InferenceFleet&) {
  // A departed actor's partial sequences go; its recurrent state and previous
  // action are reset by the FIRST flag its slot's next user starts with.
  store.drop_partial(slot);
}

void R2D2Algorithm::start_stages() { inserter_->start(); }

void R2D2Algorithm::request_stop_stages() { replay_->close(); }

void R2D2Algorithm::join_stages() { inserter_->join(); }

bool R2D2Algorithm::stages_failed() const { return inserter_ && inserter_->failed(); }

bool R2D2Algorithm::learner_step() {
  if (!learner_->step(step_stats_)) return false;
  checkpoint_->check_finite(step_stats_.loss, "loss");
  last_.set(step_stats_);
  return true;
}

std::int64_t R2D2Algorithm::learner_steps() const { return learner_->steps(); }

void R2D2Algorithm::add_scalars(Scalars& out) {
  const std::optional<r2d2::R2D2Stats> stepped = last_.get();
  const r2d2::R2D2Stats s = stepped.value_or(r2d2::R2D2Stats{});
  const auto pr = replay_->priority_stats();
  Scalars learner_scalars{{"total_loss", s.loss},
                          {"td_error", s.td_error},
                          {"q_mean", s.q_mean},
                          {"grad_norm", s.grad_norm},
                          {"learning_rate", s.learning_rate},
                          {"policy_lag", s.policy_lag},
                          {"importance_weight_mean", s.importance_weight_mean},
                          {"sample_priority_mean", s.sample_priority_mean}};
  if (!stepped)
    for (auto& [key, value] : learner_scalars) value = kNoValue;  // no step yet: no loss, not a loss of 0
  out.merge(learner_scalars);
  replay_scalars_->add(out);
  out.insert({{"priority_mean", pr.mean}, {"priority_max", pr.max}, {"priority_min", pr.min}});
}

}  // namespace seedrl
