#include "seedrl/trainer/trainer.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <thread>

#include <spdlog/spdlog.h>
#include <torch/torch.h>

#include "seedrl/actor/actor_pool.h"
#include "seedrl/inference/inference_fleet.h"
#include "seedrl/trainer/run_checkpoint.h"
#include "seedrl/trainer/run_directory.h"
#include "seedrl/learner/data_parallel.h"
#include "seedrl/learner/vtrace_learner.h"
#include "seedrl/trainer/remote_training.h"
#include "seedrl/trainer/learner_cores.h"
#include "seedrl/trainer/learner_thread.h"
#include "seedrl/trainer/memory_budget.h"
#include "seedrl/trainer/r2d2_trainer.h"
#include "seedrl/trainer/periodic_eval.h"
#include "seedrl/trainer/placement.h"
#include "seedrl/util/heap_tuning.h"
#include "seedrl/util/cpu_affinity.h"
#include "seedrl/util/signal_watcher.h"
#include "seedrl/trainer/run_ending.h"
#include "seedrl/trainer/run_dashboard.h"
#include "seedrl/trainer/run_monitor.h"
#include "seedrl/trainer/run_shutdown.h"
#include "seedrl/util/torch_runtime.h"
#include "seedrl/video/checkpoint_video.h"

namespace seedrl {

UnrollLayout vtrace_unroll_layout(const TrainConfig& config, const EnvSpec& spec) {
  UnrollLayout layout;
  layout.observation = spec.observation;
  layout.action_width = spec.action.width();
  layout.policy_size = make_policy_distribution(spec.action)->param_size();
  layout.core_size = config.model.lstm ? config.model.lstm_size : 0;
  layout.length = config.unroll_length + 1;
  layout.overlap = 1;
  return layout;
}

int train(TrainConfig config) {
  net::validate_remote_flags(config);
  validate_dashboard_flags(config);
  check_train_memory(config);  // before anything is allocated
  if (config.algo == "r2d2" && config.eval_every_s > 0)
    throw std::invalid_argument("--eval-every-s: V-trace only; R2D2 evaluates all along with --eval-envs");
  if (config.algo == "r2d2") return train_r2d2(std::move(config));
  resolve_defaults(config);
  if (share_one_heap_arena_for(config.actors)) spdlog::info("{} actor threads: one heap arena", config.actors);
  const Placement placement = resolve_placement(config);
  // Each replica would fold only its own shard into the moments, and the
  // replicas would drift apart.
  if (config.model.normalize_obs && placement.learner.size() > 1)
    throw std::invalid_argument("--normalize-obs: not supported with several learner devices (--learner-devices)");
  configure_torch_runtime(config.torch_threads,
                          placement.inference.front().is_cuda() || placement.learner.front().is_cuda());
  prepare_run_directory(config.logdir, config.resume);
  if (!config.resume && !config.settings_toml.empty()) write_run_settings(config.logdir, config.settings_toml);

  const auto& registry = EnvRegistry::builtin();
  const EnvPtr probe = registry.make(config.env, config.env_options);
  const EnvSpec spec = probe->spec();
  // Before any thread starts: threads inherit the CPUs of their creator, so
  // all but the learner threads (which place themselves) keep off theirs.
  const LearnerCores cores = learner_cores_for(config, placement, *probe);
  ScopedThreadCpus other_threads(cores.others);
  const UnrollLayout layout = vtrace_unroll_layout(config, spec);
  torch::manual_seed(config.seed);
  auto make_model = [&] { return AgentNet(spec, config.model, layout.policy_size); };

  // Remote actors (if any) lease slots after the local ones.
  const int num_envs = config.num_envs() + net::remote_slots(config);
  TrajectoryStore store(layout, num_envs, config.queue_capacity, config.learner.batch_size);
  store.stagger_unrolls();
  ParamPublisher publisher;
  DataParallelOptions dp_options;
  dp_options.learner_cpus = cores.learner;
  dp_options.checksum_every = config.replica_checksum_every;
  dp_options.cuda_graphs = config.learner_cuda_graphs();
  DataParallelLearner learner(make_model, spec.action, config.learner, store, publisher, placement.learner,
                              dp_options);

  RunCheckpoint checkpoint(config, learner);
  // A damaged best.pt, like a refused checkpoint, is the one line a user sees.
  std::optional<EvalResult> best_so_far = resumed_best_eval(config);
  const CheckpointCounters counters = checkpoint.resume(config.resume);
  std::atomic<std::int64_t> frames{counters.frames};
  PeriodicEval evaluation(config, spec, layout.policy_size, publisher, frames, std::move(best_so_far));
  // train --record-every-s: videos of the latest checkpoint, on a thread of their own
  // (refuses an env without renderer here, before the first log line).
  std::optional<CheckpointVideo> video;
  if (config.record_every_s > 0)
    video.emplace(checkpoint.path(), config.logdir, config.record_every_s, config.env, config.env_options, config.seed);
  // Only now, so that a refused --resume (or --model) is the one line a user sees.
  spdlog::info("cpus: {}", cores.description);
  spdlog::info("devices: {}", placement.describe());
  if (config.resume && finished_before(counters.frames, config.learner.max_frames)) return 0;
  learner.publish();

  spdlog::info("env {} obs {} action {} | {} actors x {} envs | inference batch {} | unroll {} batch {}",
               spec.name, spec.observation.to_string(), spec.action.to_string(), config.actors,
               config.envs_per_actor, config.inference_batch, config.unroll_length, config.learner.batch_size);
  if (const int lag = expected_policy_lag(num_envs, config.learner.batch_size); lag > kPolicyLagWarning)
    spdlog::warn("--batch-size: {} envs feed batches of {} unrolls, so the learner will see each unroll about {} "
                 "updates after it was acted (policy lag); a larger --batch-size or fewer envs keeps it lower",
                 num_envs, config.learner.batch_size, lag);
  const auto& loss = config.learner.loss;
  spdlog::info("v-trace: {} learning rate {} (to 0 at {} frames) | discount {} | entropy cost {} | reward scale {}",
               config.learner.optimizer.name, config.learner.optimizer.learning_rate, config.learner.max_frames,
               loss.discount, loss.entropy_cost, loss.reward_scale);

  EpisodeStats episodes;
  episodes.set_base(counters.episodes);
  InferenceFleet inference(placement.inference, inference_fleet_config(config, spec.observation, num_envs - config.num_envs()),
                           &store, publisher, make_model, spec.action);
  ActorPoolConfig actor_config = actor_pool_config(config);
  ActorPool actors(actor_config, inference.batchers(), episodes, frames);
  // Listens before any thread starts, so a bad address fails cleanly.
  auto remote = net::make_remote_server(config, spec, config.num_envs(), inference, episodes,
                                        frames, [&](int slot) {
    store.drop_partial(slot);
    inference.reset_slot(slot);
  });

  std::atomic<int> signal_received{0};
  SignalWatcher watcher([&](int sig) { signal_received.store(sig); });

  auto save = [&] { checkpoint.save(frames.load(), episodes.summary().episodes); };

  LearnerThread<DataParallelLearner, LearnerStats> learner_thread(learner, save, cores.of_rank(0));
  const std::int64_t max_frames = config.learner.max_frames;
  auto add_scalars = [&](Scalars& out) {
    const std::optional<LearnerStats> stepped = learner_thread.last_stats();
    const LearnerStats s = stepped.value_or(LearnerStats{});
    Scalars learner_scalars{{"total_loss", s.total_loss},
                            {"pg_loss", s.pg_loss},
                            {"baseline_loss", s.baseline_loss},
                            {"entropy", s.entropy},
                            {"grad_norm", s.grad_norm},
                            {"learning_rate", s.learning_rate},
                            {"policy_lag", s.policy_lag},
                            {"mean_rho", s.mean_rho}};
    if (!stepped)
      for (auto& [key, value] : learner_scalars) value = kNoValue;  // no step yet: no loss, not a loss of 0
    out.merge(learner_scalars);
    const InferenceTotals is = inference.totals();
    const double batches = static_cast<double>(is.batches);
    evaluation.add_columns(out);
    out.insert({{"queue_size", static_cast<double>(store.queued())},
                {"inference_batch_mean", batches > 0 ? is.rows / batches : 0.0},
                {"inference_timeouts", static_cast<double>(is.timeouts)}});
  };
  // Opens metrics.jsonl before any thread starts, so a bad --logdir fails cleanly.
  RunMonitor monitor({config.logdir, max_frames, config.log_interval_s, config.checkpoint_every_s,
                      atari_frames_per_step(config), config.report_every_s},
                     frames,
                     learner_thread.steps(), episodes, add_scalars);
  monitor.add_rows_from([&] { return evaluation.take_rows(); }, [&](Scalars& out) { evaluation.add_summary(out); });
  const auto dashboard = start_dashboard(config);  // serves until the run returns

  // Shut down in dependency order: actors stop stepping, the store and the
  // batcher close (waking anyone blocked on them), then every thread joins.
  // On any exception from here on (a thread that cannot start, a metrics
  // file that cannot be written) too, before the exception leaves.
  RunShutdown shutdown([&] {
    evaluation.request_stop();
    actors.request_stop();
    if (remote) remote->request_stop(frames.load() >= max_frames ? net::GoodbyeCode::kFinished : net::GoodbyeCode::kShutdown);
    store.close();
    inference.stop();
    if (remote) remote->join();
    actors.join();
    learner_thread.join();
    evaluation.join();
  });
  learner_thread.start();
  inference.start();
  actors.start();
  evaluation.start();

  monitor.watch([&] { return signal_received.load() != 0 || learner_thread.failed(); },
                learner_thread.checkpoint_due());
  shutdown.now();

  // The checkpoint before the summary: a summary that cannot be written
  // must not cost the run's last weights.
  const int status = finish_run(learner_thread.failed(), signal_received.load(), save, checkpoint.path(), frames.load());
  // The final weights, once the checkpoint holds them; a Ctrl-C ends it.
  if (status == 0) evaluation.evaluate_final([&] { return signal_received.load() != 0; });
  // Before the final report, which shows it; not when the user asked to stop.
  if (video && signal_received.load() == 0) video->final_video();
  spdlog::info("done: {}", describe_run(monitor.finish()));
  return status;
}

}  // namespace seedrl
