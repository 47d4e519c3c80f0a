// Learner stage alone: a feeder thread keeps the TrajectoryStore's queue full
// of synthetic unrolls; the VTraceLearner trains on them as fast as it can.
#include <spdlog/spdlog.h>
#include <torch/torch.h>

#include "measure_window.h"
#include "seedrl/inference/env_step.h"
#include "seedrl/learner/vtrace_learner.h"
#include "seedrl/trainer/trainer.h"

namespace seedrl::bench {

LearnerStageResult bench_learner_stage(const TrainConfig& config, const BenchTiming& timing) {
  const torch::Device device = resolve_device(config.device);
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
  VTraceLearner learner(AgentNet(spec, config.model, policy_size), spec.action, learner_config, store, publisher,
                        device);
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

}  // namespace seedrl::bench
