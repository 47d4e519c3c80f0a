#include "seedrl/trainer/vtrace_algorithm.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <torch/torch.h>

#include "seedrl/inference/actor_critic_step.h"
#include "seedrl/inference/inference_fleet.h"
#include "seedrl/inference/inference_server.h"
#include "seedrl/learner/data_parallel.h"
#include "seedrl/trainer/learner_cpus.h"
#include "seedrl/trainer/learner_processes.h"
#include "seedrl/trainer/periodic_eval.h"
#include "seedrl/trainer/placement.h"
#include "seedrl/trainer/run_checkpoint.h"
#include "seedrl/trainer/run_monitor.h"

namespace seedrl {

void validate_minibatches(const TrainConfig& c, int learners) {
  const int n = c.learner.minibatches;
  if (n <= 1) return;
  if (c.learner_processes()) throw std::invalid_argument("--minibatches: not with learner processes (--world-size)");
  const int devices = std::max(1, learners);
  if (c.learner.batch_size % (n * devices) != 0)
    throw std::invalid_argument(
        fmt::format("--minibatches: {} minibatches on each of {} learner device(s) do not divide --batch-size {}", n,
                    devices, c.learner.batch_size));
}

UnrollLayout vtrace_unroll_layout(const TrainConfig& config, const EnvSpec& spec) {
  UnrollLayout layout;
  layout.observation = spec.observation;
  layout.action_width = spec.action.width();
  // With --prev-action-input each row also carries the step's previous action (ActorCriticStep).
  layout.policy_size = make_policy_distribution(spec.action)->param_size() + (config.model.prev_action_input ? 1 : 0);
  layout.core_size = config.model.lstm ? config.model.lstm_size : 0;
  layout.length = config.unroll_length + 1;
  layout.overlap = 1;
  return layout;
}

VTraceAlgorithm::VTraceAlgorithm(const TrainConfig& config) : config_(config) {}

VTraceAlgorithm::~VTraceAlgorithm() = default;

UnrollLayout VTraceAlgorithm::unroll_layout(const EnvSpec& spec) const { return vtrace_unroll_layout(config_, spec); }

int VTraceAlgorithm::store_batch_size() const { return config_.learner.batch_size; }

void VTraceAlgorithm::build(const PipelineContext& ctx) {
  // Each replica would fold only its own shard into the moments, and the
  // replicas would drift apart.
  if (config_.model.normalize_obs && (ctx.placement.learner.size() > 1 || config_.learner_processes()))
    throw std::invalid_argument("--normalize-obs: not supported with several learner devices (--learner-devices)");
  validate_minibatches(config_, static_cast<int>(ctx.placement.learner.size()));
  if (config_.learner.loss.ppo_decoupled && config_.learner.loss.ppo_clip <= 0)
    throw std::invalid_argument("--ppo-decoupled: needs --ppo-clip > 0 (it moves the clipped ratio's anchor)");
  spec_ = ctx.spec;
  store_ = &ctx.store;
  publisher_ = &ctx.publisher;
  policy_size_ = make_policy_distribution(ctx.spec.action)->param_size();
  DataParallelOptions options;
  options.learner_cpus = ctx.cpus.learner;
  options.checksum_every = config_.replica_checksum_every;
  // The graphed update is one pass over the whole batch: minibatches, and the
  // proximal policy's or the fixed targets' forward before the passes, update eagerly; so does a
  // scheduled entropy cost, which a graph would hold at its captured value.
  options.cuda_graphs = config_.learner_cuda_graphs() && config_.learner.minibatches == 1 &&
                        !(config_.learner.loss.ppo_clip > 0 && config_.learner.loss.ppo_decoupled) &&
                        !config_.learner.loss.fixed_targets && config_.learner.loss.entropy_cost_final < 0;
  options.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(config_.collective_timeout_s * 1000));
  if (config_.learner_processes()) {
    options.rendezvous = learner_rendezvous(config_, static_cast<int>(ctx.placement.learner.size()));
    spdlog::info("learner processes: rank {} of {} meets the group at {}:{}", config_.rank, config_.world_size,
                 config_.master_addr, config_.master_port);
    options.tally = ctx.tally;
  }
  const EnvSpec& spec = *spec_;
  const ModelConfig model = config_.model;
  const int policy_size = policy_size_;
  learner_ = std::make_unique<DataParallelLearner>(
      [spec, model, policy_size] { return AgentNet(spec, model, policy_size); }, spec.action, config_.learner,
      ctx.store, ctx.publisher, ctx.placement.learner, options);
  checkpoint_ = std::make_unique<RunCheckpoint<DataParallelLearner>>(config_, *learner_);
  // A damaged best.pt, like a refused checkpoint, is the one line a user sees.
  evaluation_ = std::make_unique<PeriodicEval>(config_, spec, policy_size_, ctx.publisher, ctx.frames,
                                               resumed_best_eval(config_));
  if (const int lag = expected_policy_lag(ctx.train_envs, config_.learner.batch_size); lag > kPolicyLagWarning)
    spdlog::warn(
        "--batch-size: {} envs feed batches of {} unrolls, so the learner will see each unroll about {} "
        "updates after it was acted (policy lag); a larger --batch-size or fewer envs keeps it lower",
        ctx.train_envs, config_.learner.batch_size, lag);
}

CheckpointCounters VTraceAlgorithm::resume(bool resume) { return checkpoint_->resume(resume); }

void VTraceAlgorithm::save(const CheckpointCounters& run) { checkpoint_->save(run); }

std::string VTraceAlgorithm::checkpoint_path() const { return checkpoint_->path(); }

void VTraceAlgorithm::publish() { learner_->publish(); }

std::string VTraceAlgorithm::describe() const {
  const auto& loss = config_.learner.loss;
  return fmt::format(
      "v-trace: unroll {} batch {} | {} learning rate {} (to 0 at {} frames) | discount {} | entropy cost {}{} | "
      "reward scale {}",
      config_.unroll_length, config_.learner.batch_size, config_.learner.optimizer.name,
      config_.learner.optimizer.learning_rate, config_.learner.max_frames, loss.discount, loss.entropy_cost,
      loss.entropy_cost_final >= 0
          ? fmt::format(" (to {} at {} frames)", loss.entropy_cost_final, config_.learner.max_frames)
          : "",
      loss.reward_scale);
}

std::unique_ptr<DeviceInference> VTraceAlgorithm::make_inference(RequestBatcher& batcher, torch::Device device,
                                                                 int num_slots) {
  const EnvSpec spec = *spec_;
  const ModelConfig model = config_.model;
  const int policy_size = policy_size_;
  auto step = std::make_unique<ActorCriticStep>(
      [spec, model, policy_size] { return AgentNet(spec, model, policy_size); }, spec.action, num_slots);
  return std::make_unique<InferenceServer>(batcher, store_, *publisher_, std::move(step), num_slots,
                                           config_.inference_threads, device);
}

void VTraceAlgorithm::release_slot(int slot, TrajectoryStore& store, InferenceFleet& inference) {
  store.drop_partial(slot);
  inference.reset_slot(slot);
}

void VTraceAlgorithm::start_stages() { evaluation_->start(); }

void VTraceAlgorithm::request_stop_stages() { evaluation_->request_stop(); }

void VTraceAlgorithm::join_stages() { evaluation_->join(); }

void VTraceAlgorithm::attach(RunMonitor& monitor) {
  monitor.add_rows_from([this] { return evaluation_->take_rows(); },
                        [this](Scalars& out) { evaluation_->add_summary(out); });
}

void VTraceAlgorithm::after_run(int status, const std::function<bool()>& stop_requested) {
  // The final weights, once the checkpoint holds them; a Ctrl-C ends it.
  if (status == 0) evaluation_->evaluate_final(stop_requested);
}

bool VTraceAlgorithm::learner_step() {
  if (!learner_->step(step_stats_)) return false;
  checkpoint_->check_finite(step_stats_.total_loss, "loss");
  lag_sum_.store(lag_sum_.load(std::memory_order_relaxed) + step_stats_.policy_lag, std::memory_order_relaxed);
  last_.set(step_stats_);
  return true;
}

std::int64_t VTraceAlgorithm::learner_steps() const { return learner_->steps(); }

void VTraceAlgorithm::add_scalars(Scalars& out) {
  const std::optional<LearnerStats> stepped = last_.get();
  const LearnerStats s = stepped.value_or(LearnerStats{});
  Scalars learner_scalars{{"total_loss", s.total_loss}, {"pg_loss", s.pg_loss},     {"baseline_loss", s.baseline_loss},
                          {"entropy", s.entropy},       {"grad_norm", s.grad_norm}, {"learning_rate", s.learning_rate},
                          {"policy_lag", s.policy_lag}, {"mean_rho", s.mean_rho}};
  if (config_.learner.loss.ppo_clip > 0) learner_scalars["clip_fraction"] = s.clip_fraction;
  if (config_.learner.loss.entropy_cost_final >= 0) learner_scalars["entropy_cost"] = s.entropy_cost;
  if (!stepped)
    for (auto& [key, value] : learner_scalars) value = kNoValue;  // no step yet: no loss, not a loss of 0
  out.merge(learner_scalars);
  evaluation_->add_columns(out);
}

}  // namespace seedrl
