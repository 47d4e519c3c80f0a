#include "seedrl/trainer/r2d2_trainer.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include <spdlog/spdlog.h>
#include <torch/torch.h>

#include "seedrl/actor/actor_pool.h"
#include "seedrl/trainer/replay_checkpoint.h"
#include "seedrl/trainer/run_checkpoint.h"
#include "seedrl/trainer/run_directory.h"
#include "seedrl/inference/epsilon_greedy.h"
#include "seedrl/inference/inference_fleet.h"
#include "seedrl/inference/q_value_step.h"
#include "seedrl/learner/r2d2/r2d2_learner.h"
#include "seedrl/learner/r2d2/replay.h"
#include "seedrl/trainer/remote_training.h"
#include "seedrl/trainer/placement.h"
#include "seedrl/trainer/r2d2_setup.h"
#include "seedrl/trainer/trainer.h"
#include "seedrl/util/heap_tuning.h"
#include "seedrl/util/cpu_affinity.h"
#include "seedrl/util/signal_watcher.h"
#include "seedrl/trainer/learner_cores.h"
#include "seedrl/trainer/learner_thread.h"
#include "seedrl/trainer/run_ending.h"
#include "seedrl/trainer/run_dashboard.h"
#include "seedrl/trainer/run_monitor.h"
#include "seedrl/trainer/run_shutdown.h"
#include "seedrl/util/clock.h"
#include "seedrl/util/torch_runtime.h"
#include "seedrl/video/checkpoint_video.h"
#include "seedrl/util/error_text.h"

namespace seedrl {

int train_r2d2(TrainConfig config) {
  resolve_defaults(config);
  validate_r2d2_config(config);
  if (share_one_heap_arena_for(config.actors)) spdlog::info("{} actor threads: one heap arena", config.actors);
  const Placement placement = resolve_placement(config);
  configure_torch_runtime(config.torch_threads,
                          placement.inference.front().is_cuda() || placement.learner.front().is_cuda());
  prepare_run_directory(config.logdir, config.resume);
  if (!config.resume && !config.settings_toml.empty()) write_run_settings(config.logdir, config.settings_toml);
  const R2D2Config& rc = config.r2d2;

  const auto& registry = EnvRegistry::builtin();
  const EnvPtr probe = registry.make(config.env, config.env_options);
  const EnvSpec spec = probe->spec();
  // Before any thread starts: threads inherit the CPUs of their creator, so
  // all but the learner threads (which place themselves) keep off theirs.
  const LearnerCores cores = learner_cores_for(config, placement, *probe);
  ScopedThreadCpus other_threads(cores.others);
  torch::manual_seed(config.seed);
  auto make_model = [&] { return QNet(spec, config.model); };

  // Slots: local training envs, then remote ones (leased by connecting
  // actors; they explore and are recorded like local ones), then eval envs.
  const int local_envs = config.num_envs();
  const int train_envs = local_envs + net::remote_slots(config);
  const int eval_envs = rc.eval_envs;
  const UnrollLayout layout = r2d2_sequence_layout(config, spec);
  TrajectoryStore store(layout, train_envs, config.queue_capacity, 1);
  store.stagger_unrolls();

  const r2d2::ReplayConfig replay_config = r2d2_replay_config(config);
  r2d2::Replay replay(layout, replay_config);

  ParamPublisher publisher;
  DataParallelOptions dp_options;
  dp_options.learner_cpus = cores.learner;
  dp_options.checksum_every = config.replica_checksum_every;
  r2d2::R2D2Learner learner(make_model, rc, config.learner, replay, publisher, placement.learner, dp_options);

  RunCheckpoint checkpoint(config, learner, {{"target", learner.target().ptr().get()}});
  const CheckpointCounters counters = checkpoint.resume(config.resume);
  if (config.resume && finished_before(counters.frames, config.learner.max_frames)) return 0;
  ReplayCheckpoint replay_checkpoint(config, replay);
  replay_checkpoint.resume(config.resume && std::filesystem::exists(checkpoint.path()), counters.learner_steps);
  // train --record-every-s: videos of the latest checkpoint, on a thread of their own
  // (refuses an env without renderer here, before the first log line).
  std::optional<CheckpointVideo> video;
  if (config.record_every_s > 0)
    video.emplace(checkpoint.path(), config.logdir, config.record_every_s, config.env, config.env_options, config.seed);
  // Only now, so that a refused --resume (or --model) is the one line a user sees.
  spdlog::info("cpus: {}", cores.description);
  spdlog::info("replay: {} sequences of {} steps, {:.1f} MiB ({} bytes per observation, {})", rc.replay_capacity,
               layout.length, replay.byte_size() / 1048576.0, spec.observation.bytes(),
               spec.observation.to_string());
  spdlog::info("devices: {}", placement.describe());
  learner.publish();

  spdlog::info("r2d2: env {} obs {} action {} | {} actors x {} envs + {} eval envs | batch {} x ({} burn-in + {}) | n {}",
               spec.name, spec.observation.to_string(), spec.action.to_string(), config.actors,
               config.envs_per_actor, eval_envs, config.learner.batch_size, rc.burn_in, config.unroll_length,
               rc.n_step);

  std::atomic<std::int64_t> frames{counters.frames}, eval_frames{0};
  EpisodeStats episodes, eval_episodes;
  episodes.set_base(counters.episodes);
  InferenceFleetConfig fleet_config = inference_fleet_config(config, spec.observation, train_envs - local_envs);
  fleet_config.eval_envs = eval_envs;
  // One server per inference device. Each has its own selector over every
  // slot, seeded apart: a local slot is served by one device, but a remote
  // slot may meet another device in its next session, and must not replay
  // the random numbers it drew there.
  int servers_made = 0;
  InferenceFleet inference(placement.inference, fleet_config, [&](RequestBatcher& batcher, torch::Device device) {
    const std::uint64_t seed = config.seed + static_cast<std::uint64_t>(servers_made++) * 0x9E3779B97F4A7C15ull;
    auto selector = std::make_unique<r2d2::EpsilonGreedySelector>(spec.action.num_actions, train_envs, eval_envs,
                                                                  rc.epsilon, rc.epsilon_alpha, rc.eval_epsilon,
                                                                  seed, train_envs - local_envs);
    return r2d2::make_q_inference_server(batcher, store, publisher, make_model, std::move(selector), train_envs,
                                         fleet_config.num_slots(), config.inference_threads, device);
  });
  ActorPoolConfig actor_config = actor_pool_config(config);
  ActorPool actors(actor_config, inference.batchers(), episodes, frames);
  std::unique_ptr<ActorPool> eval_actors;
  if (eval_envs > 0) {
    ActorPoolConfig ec = actor_config;
    ec.actors = eval_envs;
    ec.threads_flag = "--eval-envs";
    ec.envs_per_actor = 1;
    ec.first_slot = train_envs;
    ec.max_frames = 0;  // they stop with the run; their frames are not counted
    eval_actors = std::make_unique<ActorPool>(ec, inference.batchers(), eval_episodes, eval_frames);
  }
  // Listens before any thread starts, so a bad address fails cleanly. A
  // departed actor's partial sequences go; its recurrent state and previous
  // action are reset by the FIRST flag its slot's next user starts with.
  auto remote = net::make_remote_server(config, spec, local_envs, inference, episodes, frames,
                                        [&](int slot) { store.drop_partial(slot); });

  std::atomic<int> signal_received{0};
  SignalWatcher watcher([&](int sig) { signal_received.store(sig); });

  auto save = [&] {
    replay_checkpoint.save(learner.steps(), [&] { checkpoint.save(frames.load(), episodes.summary().episodes); });
  };

  LearnerThread<r2d2::R2D2Learner, r2d2::R2D2Stats> learner_thread(learner, save, cores.of_rank(0));
  const std::int64_t max_frames = config.learner.max_frames;
  auto last_rates = SteadyClock::now();
  std::uint64_t last_inserted = replay.inserted(), last_sampled = replay.sampled();
  auto add_scalars = [&](Scalars& out) {
    const std::optional<r2d2::R2D2Stats> stepped = learner_thread.last_stats();
    const r2d2::R2D2Stats s = stepped.value_or(r2d2::R2D2Stats{});
    // Replay rates over the time since the previous line.
    const double dt = std::max(1e-9, seconds_since(last_rates));
    const std::uint64_t ins = replay.inserted(), smp = replay.sampled();
    const double insert_rate = static_cast<double>(ins - last_inserted) / dt;
    const double sample_rate = static_cast<double>(smp - last_sampled) / dt;
    last_rates = SteadyClock::now();
    last_inserted = ins;
    last_sampled = smp;
    const auto pr = replay.priority_stats();
    const InferenceTotals is = inference.totals();
    const double batches = static_cast<double>(is.batches);
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
    out.insert({{"replay_size", static_cast<double>(replay.size())},
                {"replay_bytes", static_cast<double>(replay.byte_size())},
                {"replay_inserted", static_cast<double>(ins)},
                {"replay_sampled", static_cast<double>(smp)},
                {"replay_insert_rate", insert_rate},
                {"replay_sample_rate", sample_rate},
                {"priority_mean", pr.mean},
                {"priority_max", pr.max},
                {"priority_min", pr.min},
                {"queue_size", static_cast<double>(store.queued())},
                {"inference_batch_mean", batches > 0 ? is.rows / batches : 0.0},
                {"inference_timeouts", static_cast<double>(is.timeouts)}});
    if (eval_envs > 0) {
      const auto ev = eval_episodes.summary();
      out["eval_episodes"] = static_cast<double>(ev.episodes);
      out["eval_return_mean"] = ev.episodes > 0 ? ev.return_mean : kNoValue;
    }
  };
  // Opens metrics.jsonl before any thread starts, so a bad --logdir fails cleanly.
  RunMonitor monitor({config.logdir, max_frames, config.log_interval_s, config.checkpoint_every_s,
                      atari_frames_per_step(config), config.report_every_s},
                     frames,
                     learner_thread.steps(), episodes, add_scalars);
  const auto dashboard = start_dashboard(config);  // serves until the run returns

  // Inserter: finished sequences from the store into replay (waits on the
  // replay's rate limiter, which back-pressures inference and the actors).
  std::atomic<bool> failed{false};
  std::thread inserter;
  auto insert_sequences = [&] {
    try {
      UnrollBatch one;
      while (store.next_batch(1, one)) {
        const double p = r2d2::acting_priority(one, rc.burn_in, config.learner.loss, rc.n_step, rc.priority_eta);
        if (!replay.insert(one, 0, p)) break;
      }
    } catch (const std::exception& e) {
      spdlog::error("replay inserter failed: {}", error_text(e));
      failed.store(true);
    }
  };

  // Dependency order: actors stop, replay and store close (waking the
  // learner, the inserter and inference), then every thread joins. On any
  // exception from here on (a thread that cannot start, a metrics file that
  // cannot be written) too, before the exception leaves.
  RunShutdown shutdown([&] {
    actors.request_stop();
    if (eval_actors) eval_actors->request_stop();
    if (remote) remote->request_stop(frames.load() >= max_frames ? net::GoodbyeCode::kFinished : net::GoodbyeCode::kShutdown);
    replay.close();
    store.close();
    inference.stop();
    if (remote) remote->join();
    actors.join();
    if (eval_actors) eval_actors->join();
    if (inserter.joinable()) inserter.join();
    learner_thread.join();
  });
  inserter = std::thread(insert_sequences);
  learner_thread.start();
  inference.start();
  actors.start();
  if (eval_actors) eval_actors->start();

  monitor.watch([&] { return signal_received.load() != 0 || failed.load() || learner_thread.failed(); },
                learner_thread.checkpoint_due());
  shutdown.now();

  // The checkpoint before the summary: a summary that cannot be written
  // must not cost the run's last weights.
  const int status =
      finish_run(failed.load() || learner_thread.failed(), signal_received.load(), save, checkpoint.path(), frames.load());
  // Before the final report, which shows it; not when the user asked to stop.
  if (video && signal_received.load() == 0) video->final_video();
  spdlog::info("done: {}", describe_run(monitor.finish()));
  if (eval_envs > 0) spdlog::info("eval envs: {} episodes, mean return {:.2f}", eval_episodes.summary().episodes,
                                  eval_episodes.summary().return_mean);
  return status;
}

}  // namespace seedrl
