// Learner stage alone: a feeder thread keeps the TrajectoryStore's queue full
// of synthetic unrolls; the data-parallel learner trains on them as fast as it
// can, on the learner devices the placement flags give (as `train` would).
#include <spdlog/spdlog.h>
#include <torch/torch.h>

#include "measure_window.h"
#include "seedrl/inference/env_step.h"
#include "seedrl/learner/data_parallel.h"
#include "seedrl/trainer/placement.h"
#include "seedrl/trainer/trainer.h"

namespace seedrl::bench {

namespace {

LearnerStageResult run_learner(const TrainConfig& config, const BenchTiming& timing,
                               const std::vector<torch::Device>& devices) {
  const EnvSpec spec = EnvRegistry::builtin().make(config.env, config.env_options)->spec();
  const int policy_size = make_policy_distribution(spec.action)->param_size();
  const int B = config.learner.batch_size;
  UnrollLayout layout;
  layout.observation = spec.observation;
  layout.action_width = spec.action.width();
  layout.policy_size = policy_size;
  layout.core_size = config.model.lstm ? config.model.lstm_size : 0;
  layout.length = config.unroll_length + 1;
  layout.overlap = 1;
  TrajectoryStore store(layout, B, config.queue_capacity, B);
  ParamPublisher publisher;
  LearnerConfig learner_config = config.learner;
  learner_config.max_frames = std::int64_t{1} << 50;  // keep the learning rate from decaying to 0
  torch::manual_seed(config.seed);
  DataParallelLearner learner([&] { return AgentNet(spec, config.model, policy_size); }, spec.action,
                              learner_config, store, publisher, devices);
  learner.publish();

  // Synthetic steps: a real observation, action 0 (valid for every action
  // space), zero policy parameters and core state, reward 1.
  std::vector<std::uint8_t> obs(spec.observation.bytes());
  EnvRegistry::builtin().make(config.env, config.env_options)->reset(config.seed, obs.data());
  std::vector<float> action(layout.action_width, 0.f), policy(policy_size, 0.f);
  std::vector<float> core(std::max(1, layout.core_size), 0.f);
  std::thread feeder([&] {
    StepRecord rec;
    rec.obs = obs.data();
    rec.action = action.data();
    rec.policy = policy.data();
    rec.core_h = core.data();
    rec.core_c = core.data();
    rec.reward = 1.f;
    for (std::uint64_t t = 0;; ++t) {
      rec.flags = t == 0 ? kFirst : 0;
      for (int slot = 0; slot < B; ++slot)
        if (!store.append(slot, rec, 0)) return;
    }
  });

  ThreadCount steps;
  std::atomic<bool> stop{false}, failed{false};
  std::thread learner_thread([&] {
    try {
      LearnerStats stats;
      std::uint64_t n = 0;
      while (!stop.load(std::memory_order_relaxed) && learner.step(stats)) steps.value.store(++n);
    } catch (const std::exception& e) {
      spdlog::error("bench learner stage: {}", e.what());
      failed.store(true);
    }
  });
  std::uint64_t n0 = 0, n1 = 0;
  const double window = measure(timing, [&] { n0 = steps.value.load(); }, [&] { n1 = steps.value.load(); });
  stop.store(true);
  store.close();
  feeder.join();
  learner_thread.join();
  if (failed.load()) throw std::runtime_error("learner stage failed (see the error above)");

  LearnerStageResult r;
  const double updates = static_cast<double>(n1 - n0);
  r.steps_per_s = updates / window;
  r.frames_per_s = r.steps_per_s * config.unroll_length * B;
  r.step_ms_mean = updates > 0 ? window * 1e3 / updates : 0;
  return r;
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
    }
  }
  return all;
}

}  // namespace seedrl::bench
