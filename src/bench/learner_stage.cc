// Learner stage alone, on the learner devices the placement flags give (as
// `train` would). V-trace: a feeder thread keeps the TrajectoryStore's queue
// full of synthetic unrolls. R2D2: the prioritised replay is filled with
// synthetic sequences first; nothing inserts while the learner samples.
#include <spdlog/spdlog.h>
#include <torch/torch.h>

#include "measure_window.h"
#include "seedrl/env/env_step.h"
#include "seedrl/learner/data_parallel.h"
#include "seedrl/learner/r2d2/r2d2_learner.h"
#include "seedrl/trainer/placement.h"
#include "seedrl/trainer/r2d2_setup.h"
#include "seedrl/trainer/vtrace_algorithm.h"
#include "seedrl/util/denormals.h"
#include "seedrl/util/error_text.h"
#include "synthetic_step.h"

namespace seedrl::bench {

namespace {

// Runs `step` (one update; false once its input closed) on a thread while the
// window is measured, then calls `close` to release it. Returns updates/s and,
// given `replays` (updates replayed as a CUDA graph so far), their share.
template <typename Step, typename Close>
LearnerStageResult count_updates(const BenchTiming& timing, double frames_per_update, Step&& step, Close&& close,
                                 const std::atomic<std::uint64_t>* replays = nullptr) {
  ThreadCount steps;
  std::atomic<bool> stop{false}, failed{false};
  std::thread learner_thread([&] {
    flush_denormals_on_this_thread();  // as the trainer's learner thread
    try {
      std::uint64_t n = 0;
      while (!stop.load(std::memory_order_relaxed) && step()) steps.value.store(++n);
    } catch (const std::exception& e) {
      spdlog::error("bench learner stage: {}", error_text(e));
      failed.store(true);
    }
  });
  std::uint64_t n0 = 0, n1 = 0, g0 = 0, g1 = 0;
  const auto replayed = [replays] { return replays ? replays->load() : 0; };
  const Window window = measure(
      timing,
      [&] {
        n0 = steps.value.load();
        g0 = replayed();
      },
      [&] {
        n1 = steps.value.load();
        g1 = replayed();
      },
      [&] { return steps.value.load() > n0 || failed.load(); });
  stop.store(true);
  close();
  learner_thread.join();
  if (failed.load()) throw std::runtime_error("learner stage failed (see the error above)");
  LearnerStageResult r;
  const double updates = static_cast<double>(n1 - n0);
  r.steps_per_s = updates / window.seconds;
  r.graph_fraction = updates > 0 ? static_cast<double>(g1 - g0) / updates : 0;
  r.frames_per_s = r.steps_per_s * frames_per_update;
  r.step_ms_mean = updates > 0 ? window.seconds * 1e3 / updates : 0;
  r.cpu_us_per_frame = window.cpu_us_per(updates * frames_per_update);
  return r;
}

LearnerStageResult run_vtrace_learner(const TrainConfig& config, const BenchTiming& timing,
                                      const std::vector<torch::Device>& devices) {
  const EnvSpec spec = EnvRegistry::builtin().make(config.env, config.env_options)->spec();
  const int B = config.learner.batch_size;
  const UnrollLayout layout = vtrace_unroll_layout(config, spec);
  TrajectoryStore store(layout, B, config.queue_capacity, B);
  ParamPublisher publisher;
  LearnerConfig learner_config = config.learner;
  learner_config.max_frames = std::int64_t{1} << 50;  // keep the learning rate from decaying to 0
  torch::manual_seed(config.seed);
  DataParallelOptions options;
  options.cuda_graphs = config.learner_cuda_graphs();
  DataParallelLearner learner(
      [&] { return AgentNet(spec, config.model, make_policy_distribution(spec.action)->param_size()); }, spec.action,
      learner_config, store, publisher, devices, options);
  learner.publish();

  const SyntheticStep synthetic(config, layout);
  std::thread feeder = feed_synthetic(store, synthetic, B);
  LearnerStats stats;
  std::atomic<std::uint64_t> replays{0};
  auto r = count_updates(
      timing, static_cast<double>(config.unroll_length) * B,
      [&] {
        const bool stepped = learner.step(stats);
        if (stepped && learner.update_replayed()) replays.fetch_add(1, std::memory_order_relaxed);
        return stepped;
      },
      [&] { store.close(); }, &replays);
  feeder.join();
  return r;
}

LearnerStageResult run_r2d2_learner(const TrainConfig& config, const BenchTiming& timing,
                                    const std::vector<torch::Device>& devices) {
  const EnvSpec spec = EnvRegistry::builtin().make(config.env, config.env_options)->spec();
  const int B = config.learner.batch_size;
  const UnrollLayout layout = r2d2_sequence_layout(config, spec);
  // Enough sequences that a batch samples from a real sum tree, bounded so
  // that filling takes moments: sampling costs log(capacity), not capacity.
  r2d2::ReplayConfig replay_config = r2d2_replay_config(config);
  const std::int64_t fill = std::min<std::int64_t>(replay_config.capacity, std::max(4 * B, 4096));
  replay_config.capacity = fill;
  replay_config.min_fill = std::min<std::int64_t>(fill, B);
  replay_config.replay_ratio = 0;  // nothing inserts while the learner samples
  r2d2::Replay replay(layout, replay_config);
  {
    // Sequences cut by the TrajectoryStore as inference would cut them, with
    // priorities spread over a decade.
    TrajectoryStore cutter(layout, 1, 4, 1);
    const SyntheticStep synthetic(config, layout);
    UnrollBatch one;
    std::int64_t inserted = 0;
    for (std::uint64_t t = 0; inserted < fill; ++t) {
      cutter.append(0, synthetic.record(t), 0);
      while (cutter.queued() > 0 && inserted < fill) {
        cutter.next_batch(1, one);
        replay.insert(one, 0, 0.1 + static_cast<double>(inserted % 10) / 10.0);
        ++inserted;
      }
    }
  }
  ParamPublisher publisher;
  LearnerConfig learner_config = config.learner;
  learner_config.max_frames = std::int64_t{1} << 50;
  torch::manual_seed(config.seed);
  r2d2::R2D2Learner learner([&] { return QNet(spec, config.model); }, config.r2d2, learner_config, replay, publisher,
                            devices);
  learner.publish();
  r2d2::R2D2Stats stats;
  // An update trains on unroll_length steps of each sequence (burn-in excluded), as R2D2Learner counts frames.
  return count_updates(
      timing, static_cast<double>(config.unroll_length) * B, [&] { return learner.step(stats); },
      [&] { replay.close(); });
}

LearnerStageResult run_learner(const TrainConfig& config, const BenchTiming& timing,
                               const std::vector<torch::Device>& devices) {
  return config.algo == "r2d2" ? run_r2d2_learner(config, timing, devices)
                               : run_vtrace_learner(config, timing, devices);
}

}  // namespace

LearnerStageResult bench_learner_stage(const TrainConfig& config, const BenchTiming& timing) {
  const std::vector<torch::Device> devices = resolve_placement(config).learner;
  if (devices.size() == 1) return run_learner(config, timing, devices);
  LearnerStageResult all;
  for (std::size_t n = 1; n <= devices.size(); ++n) {
    spdlog::info("bench learner stage: {} of {} learner devices", n, devices.size());
    const LearnerStageResult r = run_learner(config, timing, {devices.begin(), devices.begin() + n});
    const double base = all.scaling.empty() ? r.frames_per_s : all.scaling.front().frames_per_s;
    all.scaling.push_back({static_cast<int>(n), r.frames_per_s, r.steps_per_s,
                           base > 0 ? r.frames_per_s / (static_cast<double>(n) * base) : 0});
    if (n == devices.size()) {
      all.frames_per_s = r.frames_per_s;
      all.steps_per_s = r.steps_per_s;
      all.step_ms_mean = r.step_ms_mean;
      all.cpu_us_per_frame = r.cpu_us_per_frame;
    }
  }
  return all;
}

}  // namespace seedrl::bench
