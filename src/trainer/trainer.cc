#include "seedrl/trainer/trainer.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <thread>

#include <spdlog/spdlog.h>
#include <torch/torch.h>

#include "seedrl/actor/actor_pool.h"
#include "seedrl/inference/inference_server.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/io/metrics_writer.h"
#include "seedrl/io/progress_line.h"
#include "seedrl/learner/data_parallel.h"
#include "seedrl/learner/vtrace_learner.h"
#include "seedrl/net/remote_training.h"
#include "seedrl/trainer/r2d2_trainer.h"
#include "seedrl/trainer/placement.h"
#include "seedrl/util/signal_watcher.h"
#include "seedrl/trainer/run_ending.h"
#include "seedrl/util/clock.h"
#include "seedrl/util/torch_runtime.h"

namespace seedrl {

namespace {
using Clock = SteadyClock;
}  // namespace

int train(TrainConfig config) {
  net::validate_remote_flags(config);
  if (config.algo == "r2d2") return train_r2d2(std::move(config));
  resolve_defaults(config);
  const int visible_gpus = torch::cuda::is_available() ? static_cast<int>(torch::cuda::device_count()) : 0;
  const Placement placement = resolve_placement(config.devices, config.inference_devices, config.learner_devices,
                                                visible_gpus, config.device);
  // Each replica would fold only its own shard into the moments, and the
  // replicas would drift apart.
  if (config.model.normalize_obs && placement.learner.size() > 1)
    throw std::invalid_argument("--normalize-obs: not supported with several learner devices (--learner-devices)");
  configure_torch_runtime(config.torch_threads, visible_gpus > 0 && (placement.inference.front().is_cuda() ||
                                                                     placement.learner.front().is_cuda()));
  const torch::Device device = placement.inference.front();  // inference
  std::filesystem::create_directories(config.logdir);

  const auto& registry = EnvRegistry::builtin();
  const EnvSpec spec = registry.make(config.env, config.env_options)->spec();
  auto dist = make_policy_distribution(spec.action);
  const int policy_size = dist->param_size();
  torch::manual_seed(config.seed);
  auto make_model = [&] { return AgentNet(spec, config.model, policy_size); };

  // Remote actors (if any) lease slots after the local ones.
  const int num_envs = config.num_envs() + net::remote_slots(config);
  UnrollLayout layout;
  layout.observation = spec.observation;
  layout.action_width = spec.action.width();
  layout.policy_size = policy_size;
  layout.core_size = config.model.lstm ? config.model.lstm_size : 0;
  layout.length = config.unroll_length + 1;
  layout.overlap = 1;
  TrajectoryStore store(layout, num_envs, config.queue_capacity, config.learner.batch_size);
  ParamPublisher publisher;
  DataParallelOptions dp_options;
  dp_options.checksum_every = config.replica_checksum_every;
  DataParallelLearner learner(make_model, spec.action, config.learner, store, publisher, placement.learner,
                              dp_options);
  spdlog::info("devices: {}", placement.describe());

  CheckpointCounters counters;
  const std::string ckpt = checkpoint_path(config.logdir);
  if (config.resume) {
    if (std::filesystem::exists(ckpt)) {
      LoadedCheckpoint loaded = load_checkpoint(ckpt, *learner.model(), &learner.optimizer());
      counters = loaded.counters;
      learner.set_counters(counters.learner_steps, counters.learner_frames);
      learner.sync_replicas();
      spdlog::info("resumed from {} at {} frames, {} learner steps", ckpt, counters.frames, counters.learner_steps);
    } else {
      spdlog::warn("--resume: no checkpoint at {}; starting fresh", ckpt);
    }
  }
  learner.publish();

  spdlog::info("env {} obs {} action {} | {} actors x {} envs | inference batch {} on {} | unroll {} batch {}",
               spec.name, spec.observation.to_string(), spec.action.to_string(), config.actors,
               config.envs_per_actor, config.inference_batch, device.str(), config.unroll_length,
               config.learner.batch_size);

  std::atomic<std::int64_t> frames{counters.frames};
  EpisodeStats episodes;
  episodes.set_base(counters.episodes);
  const int buffers = RequestBatcher::buffers_needed(num_envs, config.inference_batch, config.inference_threads);
  RequestBatcher batcher(spec.observation, config.inference_batch,
                         std::chrono::microseconds(config.inference_timeout_us), buffers, device.is_cuda());
  batcher.track_live_envs(config.num_envs(), config.inference_batch_auto);  // remote envs add themselves
  InferenceServer inference(batcher, &store, publisher, make_model, spec.action, num_envs,
                            config.inference_threads, device);
  ActorPoolConfig actor_config = actor_pool_config(config);
  ActorPool actors(actor_config, batcher, episodes, frames);
  // Listens before any thread starts, so a bad address fails cleanly.
  auto remote = net::make_remote_server(config, spec, config.num_envs(), batcher, episodes, frames, [&](int slot) {
    store.drop_partial(slot);
    inference.reset_slot(slot);
  });
  MetricsWriter metrics(config.logdir);
  ProgressLine progress(stderr);

  std::atomic<int> signal_received{0};
  SignalWatcher watcher([&](int sig) { signal_received.store(sig); });

  const std::string config_json = to_json(config);
  auto save = [&] {
    CheckpointCounters c;
    c.frames = frames.load();
    c.learner_steps = learner.steps();
    c.learner_frames = learner.frames();
    c.episodes = episodes.summary().episodes;
    save_checkpoint(ckpt, *learner.model(), learner.optimizer(), c, config_json);
  };

  std::mutex stats_mu;
  LearnerStats last_stats;
  std::atomic<std::int64_t> learner_steps{learner.steps()};
  std::atomic<bool> checkpoint_due{false}, learner_failed{false};
  std::thread learner_thread([&] {
    try {
      LearnerStats s;
      while (learner.step(s)) {
        {
          std::lock_guard lock(stats_mu);
          last_stats = s;
        }
        learner_steps.store(learner.steps());
        if (checkpoint_due.exchange(false)) save();
      }
    } catch (const std::exception& e) {
      spdlog::error("learner failed: {}", e.what());
      learner_failed.store(true);
    }
  });

  inference.start();
  actors.start();

  const auto t0 = Clock::now();
  auto last_log = t0, last_ckpt = t0, last_draw = t0;
  std::int64_t last_frames = frames.load();
  const std::int64_t start_frames = last_frames;
  double fps = 0;
  auto scalars = [&](double wall) {
    LearnerStats s;
    {
      std::lock_guard lock(stats_mu);
      s = last_stats;
    }
    const auto ep = episodes.summary();
    const auto& is = inference.stats();
    const double batches = static_cast<double>(is.batches.load());
    return Scalars{{"frames", static_cast<double>(frames.load())},
                   {"fps", fps},
                   {"episodes", static_cast<double>(ep.episodes)},
                   {"episode_return_mean", ep.return_mean},
                   {"episode_length_mean", ep.length_mean},
                   {"learner_steps", static_cast<double>(learner_steps.load())},
                   {"wall_seconds", wall},
                   {"total_loss", s.total_loss},
                   {"pg_loss", s.pg_loss},
                   {"baseline_loss", s.baseline_loss},
                   {"entropy", s.entropy},
                   {"grad_norm", s.grad_norm},
                   {"learning_rate", s.learning_rate},
                   {"policy_lag", s.policy_lag},
                   {"mean_rho", s.mean_rho},
                   {"queue_size", static_cast<double>(store.queued())},
                   {"inference_batch_mean", batches > 0 ? is.rows.load() / batches : 0.0},
                   {"inference_timeouts", static_cast<double>(batcher.timeouts())}};
  };

  const std::int64_t max_frames = config.learner.max_frames;
  while (frames.load() < max_frames && !signal_received.load() && !learner_failed.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const auto now = Clock::now();
    if (std::chrono::duration<double>(now - last_log).count() >= config.log_interval_s) {
      const std::int64_t f = frames.load();
      fps = (f - last_frames) / std::chrono::duration<double>(now - last_log).count();
      last_frames = f;
      last_log = now;
      metrics.write(scalars(seconds_since(t0)), unix_now());
      if (!progress.interactive()) {
        const auto ep = episodes.summary();
        progress.update({f, max_frames, ep.episodes, learner_steps.load(), fps, ep.return_mean, seconds_since(t0)});
      }
    }
    if (progress.interactive() && std::chrono::duration<double>(now - last_draw).count() >= 0.5) {
      last_draw = now;
      const auto ep = episodes.summary();
      const double run_fps = (frames.load() - start_frames) / std::max(1e-9, seconds_since(t0));
      progress.update({frames.load(), max_frames, ep.episodes, learner_steps.load(), run_fps, ep.return_mean,
                       seconds_since(t0)});
    }
    if (config.checkpoint_every_s > 0 &&
        std::chrono::duration<double>(now - last_ckpt).count() >= config.checkpoint_every_s) {
      last_ckpt = now;
      checkpoint_due.store(true);
    }
  }

  // Shut down in dependency order: actors stop stepping, the store and the
  // batcher close (waking anyone blocked on them), then every thread joins.
  actors.request_stop();
  if (remote) remote->request_stop(frames.load() >= max_frames ? net::GoodbyeCode::kFinished : net::GoodbyeCode::kShutdown);
  store.close();
  inference.stop();
  if (remote) remote->join();
  actors.join();
  learner_thread.join();
  progress.finish();

  const double wall = seconds_since(t0);
  const int status = finish_run(learner_failed.load(), signal_received.load(), save, ckpt, frames.load());
  fps = (frames.load() - start_frames) / std::max(1e-9, wall);
  Scalars final_scalars = scalars(wall);
  metrics.write(final_scalars, unix_now());
  final_scalars["completed"] = frames.load() >= max_frames ? 1 : 0;
  metrics.write_summary(final_scalars);
  const auto ep = episodes.summary();
  spdlog::info("done: {} frames in {:.1f} s ({:.0f} fps), {} episodes, mean return (last 100) {:.2f}",
               frames.load(), wall, fps, ep.episodes, ep.return_mean);
  return status;
}

}  // namespace seedrl
