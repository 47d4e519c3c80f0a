#include "seedrl/trainer/training_run.h"
#include "seedrl/util/blas_kernels.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <system_error>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "seedrl/trainer/checkpoint_video.h"
#include "seedrl/trainer/pipeline.h"
#include "seedrl/trainer/placement.h"
#include "seedrl/trainer/run_dashboard.h"
#include "seedrl/trainer/run_directory.h"
#include "seedrl/trainer/run_ending.h"
#include "seedrl/trainer/run_lock.h"
#include "seedrl/trainer/run_monitor.h"
#include "seedrl/util/signal_watcher.h"

namespace seedrl {

int run_training(const TrainConfig& config, Algorithm& algorithm) {
  // Watched from the start: setup can wait long (learner processes meeting,
  // a large replay loading), and has nothing to save yet, so a signal before
  // the threads start ends the process at once; after, it stops the run.
  std::atomic<int> signal_received{0};
  std::atomic<bool> started{false};
  SignalWatcher watcher([&](int sig) {
    if (!started.load()) exit_on_stop_signal(sig);
    signal_received.store(sig);
  });
  Pipeline pipeline(config, algorithm);             // refuses a bad setting before the run directory is touched
  const auto dashboard = listen_dashboard(config);  // serves until the run returns
  create_run_directory(config.logdir);
  const RunLock lock(config.logdir);  // before an earlier run's files are set aside
  prepare_run_directory(config.logdir, config.resume);
  if (!config.resume && !config.settings_toml.empty()) write_run_settings(config.logdir, config.settings_toml);
  const CheckpointCounters counters = algorithm.resume(config.resume);
  if (config.resume && finished_before(counters.frames, config.learner.max_frames)) {
    say_finished_before(counters.frames, config.learner.max_frames);
    return 0;
  }
  if (config.resume && config.stop_at_target && counters.target_reached &&
      counters.target_reached->target == *config.target_return) {
    spdlog::info("run already reached --target-return {} at {} frames (--stop-at-target); nothing to do",
                 *config.target_return, counters.target_reached->frames);
    return 0;
  }
  // Only once all of it loaded (the replay too), so that a refused resume is
  // one line.
  if (config.resume)
    spdlog::info("resumed from {} at {} frames, {} learner steps", algorithm.checkpoint_path(), counters.frames,
                 counters.learner_steps);
  else if (!config.init_checkpoint.empty())
    spdlog::info("network from {} (--init-checkpoint: its weights only; optimizer, counters and schedules start fresh)",
                 config.init_checkpoint);
  pipeline.set_counters(counters);
  // train --record-every-s: videos of the latest checkpoint, on a thread of their own
  // (refuses an env without renderer here, before the first log line).
  std::optional<CheckpointVideo> video;
  if (config.record_every_s > 0)
    video.emplace(algorithm.checkpoint_path(), config.logdir, config.record_every_s, config.env, config.env_options,
                  config.seed);
  // Only now, so that a refused --resume (or --model) is the one line a user sees.
  const EnvSpec& spec = pipeline.spec();
  for (const std::string& note : config.start_notes) spdlog::info("{}", note);
  const std::string logdir = std::filesystem::absolute(config.logdir).lexically_normal().string();
  spdlog::info("logdir: {}", logdir);
  spdlog::info("cpus: {}", pipeline.cpus().description);
  spdlog::info("devices: {}", pipeline.placement().describe());
  spdlog::info("blas: {}", describe_blas());
  if (const char* chosen = std::getenv("OPENBLAS_CORETYPE"); chosen && !openblas_core().empty()) {
    const std::string warning = blas_core_warning(chosen, cpu_vector_support());
    if (!warning.empty()) spdlog::warn("blas: {}", warning);
  }
  const auto& placement = pipeline.placement();
  const auto on_cpu = [](const std::vector<torch::Device>& d) {
    return std::any_of(d.begin(), d.end(), [](const torch::Device& x) { return x.is_cpu(); });
  };
  if (config.model.precision == "bf16" && (on_cpu(placement.inference) || on_cpu(placement.learner))) {
    const CpuVectorSupport cpu = cpu_vector_support();
    if (!cpu.bf16)
      spdlog::warn(
          "--precision bf16: this CPU has no bfloat16 instructions (AVX512-BF16 or AMX), so bfloat16 is "
          "emulated there and likely slower than fp32");
    else if (!cpu.bf16_faster)
      spdlog::warn(
          "--precision bf16: this CPU's AVX512-BF16 without AMX does no more multiply-adds per cycle than "
          "float32 on an Intel core, so bf16 is likely slower than fp32 here (--precision auto picks fp32)");
  }
  spdlog::info("env {} obs {} action {} | {} actors x {} envs{} | inference batch {}", spec.name,
               spec.observation.to_string(), spec.action.to_string(), config.actors, config.envs_per_actor,
               algorithm.eval_envs() > 0 ? " + " + std::to_string(algorithm.eval_envs()) + " eval envs" : "",
               config.inference_batch);
  spdlog::info("{}", algorithm.describe());
  algorithm.publish();

  auto& frames = pipeline.frames();
  // Opens metrics.jsonl before any thread starts, so a bad --logdir fails cleanly.
  RunMonitor monitor({config.logdir, config.learner.max_frames, config.log_interval_s, config.checkpoint_every_s,
                      atari_frames_per_step(config), config.report_every_s, counters.wall_seconds, config.target_return,
                      config.stop_at_target, counters.target_reached},
                     frames, pipeline.learner_thread().steps(), pipeline.episodes(),
                     [&](Scalars& out) { pipeline.add_scalars(out); });
  algorithm.attach(monitor);
  auto save = [&] {
    CheckpointCounters run;
    run.frames = frames.load();
    run.episodes = pipeline.episodes().summary().episodes;
    run.wall_seconds = monitor.elapsed_s();
    pipeline.episodes().window(run.recent_returns, run.recent_lengths);
    run.target_reached = monitor.target_reached();
    algorithm.save(run);
  };
  if (dashboard) dashboard->announce();

  // From here on an exception (a metrics file that cannot be written) leaves
  // through ~Pipeline, which stops every thread first.
  started.store(true);
  pipeline.start(save);
  // The learner finishes first only in a run of learner processes, when another rank stopped it.
  monitor.watch(
      [&] { return signal_received.load() != 0 || pipeline.failed() || pipeline.learner_thread().finished(); },
      pipeline.learner_thread().checkpoint_due());
  // Remote actors hear "finished", not "wait".
  if (monitor.stopped_at_target() || pipeline.learner_thread().finished()) pipeline.mark_finished();
  pipeline.stop();

  // The checkpoint before the summary: a summary that cannot be written
  // must not cost the run's last weights.
  const int status =
      finish_run(pipeline.failed(), signal_received.load(), save, algorithm.checkpoint_path(), frames.load());
  algorithm.after_run(status, [&] { return signal_received.load() != 0; });
  // Before the final report, which shows it; not when the user asked to stop.
  if (video && signal_received.load() == 0) video->final_video();
  spdlog::info("done: {}", describe_run(monitor.finish()));
  if (algorithm.eval_envs() > 0) {
    const auto ev = pipeline.eval_episodes().summary();
    spdlog::info("eval envs: {} episodes, mean return {}", ev.episodes,
                 ev.episodes > 0 ? fmt::format("{:.2f}", ev.return_mean) : "- (no episode ended)");
  }
  // Where the run's outputs are, for the user who did not choose the logdir.
  const auto in_logdir = [&](const char* name) { return (std::filesystem::path(logdir) / name).string(); };
  std::error_code ec;
  if (std::filesystem::exists(algorithm.checkpoint_path(), ec))
    spdlog::info("checkpoint: {}", std::filesystem::absolute(algorithm.checkpoint_path()).lexically_normal().string());
  if (std::filesystem::exists(in_logdir("report.html"), ec)) spdlog::info("report: {}", in_logdir("report.html"));
  if (std::filesystem::exists(in_logdir("video.gif"), ec)) spdlog::info("video: {}", in_logdir("video.gif"));
  spdlog::info("metrics: {} (TensorBoard: tensorboard --logdir {})", in_logdir("metrics.csv"), logdir);
  return status;
}

}  // namespace seedrl
