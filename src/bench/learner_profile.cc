// One V-trace update taken apart: each phase runs alone, the device is
// synchronised around it, and the wall time between is its cost. The sum of
// the phases is an upper bound of the pipelined update (nothing overlaps
// here); the unsynchronised update after it is what the learner really pays.
#include <chrono>
#include <thread>

#include <fmt/format.h>
#include <torch/cuda.h>
#include <torch/torch.h>

#include "seedrl/bench/stage_bench.h"
#include "seedrl/learner/data_parallel_options.h"
#include "seedrl/learner/device_optimizer_step.h"
#include "seedrl/learner/vtrace_learner.h"
#include "seedrl/publisher/param_publisher.h"
#include "seedrl/trainer/placement.h"
#include "seedrl/trainer/vtrace_algorithm.h"
#include "seedrl/util/denormals.h"
#include "synthetic_step.h"

namespace seedrl::bench {

namespace {

using Clock = std::chrono::steady_clock;

// Accumulates synchronised wall time per phase.
class PhaseClock {
 public:
  PhaseClock(torch::Device device, std::size_t phases) : cuda_(device.is_cuda()), ms_(phases, 0.0) {}
  void sync() const {
    if (cuda_) torch::cuda::synchronize();
  }
  template <typename F>
  auto time(std::size_t phase, F&& f) {
    sync();
    const auto t0 = Clock::now();
    auto result = f();
    sync();
    ms_[phase] += std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    return result;
  }
  void reset() { std::fill(ms_.begin(), ms_.end(), 0.0); }
  const std::vector<double>& ms() const { return ms_; }

 private:
  bool cuda_;
  std::vector<double> ms_;
};

UnrollBatch to_device(const UnrollBatch& b, torch::Device device) {
  UnrollBatch d = b;
  d.obs = b.obs.to(device, true);
  d.actions = b.actions.to(device, true);
  d.policy = b.policy.to(device, true);
  d.rewards = b.rewards.to(device, true);
  d.flags = b.flags.to(device, true);
  if (b.core_h.defined()) {
    d.core_h = b.core_h.to(device, true);
    d.core_c = b.core_c.to(device, true);
  }
  return d;
}

}  // namespace

LearnerProfile profile_learner_update(const TrainConfig& config, int updates) {
  flush_denormals_on_this_thread();  // as the trainer's learner thread, on this one
  const torch::Device device = resolve_placement(config).learner.front();
  const EnvSpec spec = EnvRegistry::builtin().make(config.env, config.env_options)->spec();
  const int B = config.learner.batch_size;
  const UnrollLayout layout = vtrace_unroll_layout(config, spec);
  TrajectoryStore store(layout, B, config.queue_capacity, B);
  if (device.is_cuda()) store.pin_batches(true);
  torch::manual_seed(config.seed);
  AgentNet model(spec, config.model, make_policy_distribution(spec.action)->param_size());
  model->to(device);
  model->train();
  auto dist = make_policy_distribution(spec.action);
  auto optimizer = make_optimizer(config.learner.optimizer, model->parameters());
  std::unique_ptr<DeviceOptimizerStep> device_step;
  // The optimizer step the trainer's learner takes (DataParallelOptions' auto rule).
  if (DataParallelOptions{}.use_device_step(device.is_cuda(), config.learner.optimizer.name == "adam"))
    device_step = std::make_unique<DeviceOptimizerStep>(*optimizer, config.learner.optimizer, model->parameters());
  ParamPublisher publisher;

  const SyntheticStep synthetic(config, layout);
  std::thread feeder = feed_synthetic(store, synthetic, B);

  LearnerProfile p;
  p.device = device.str();
  p.updates = updates;
  p.frames_per_update = static_cast<double>(config.unroll_length) * B;
  for (const auto& t : model->parameters()) p.parameters += t.numel();
  p.phases = {"assemble batch (CPU)",  "copy to device", "forward", "V-trace losses", "backward",
              "clip + optimizer step", "publish weights"};
  PhaseClock clock(device, p.phases.size());
  const double lr = config.learner.optimizer.learning_rate;
  UnrollBatch batch;
  const int warmup = 5;
  for (int i = 0; i < warmup + updates; ++i) {
    if (i == warmup) clock.reset();
    clock.time(0, [&] { return store.next_batch(B, batch); });
    const UnrollBatch d = clock.time(1, [&] { return to_device(batch, device); });
    if (device_step) device_step->prepare(lr);
    const NetOutput out = clock.time(2, [&] { return vtrace_forward(model, d, device); });
    const VTraceLosses l =
        clock.time(3, [&] { return vtrace_losses_from_output(out, *dist, d, config.learner.loss, device); });
    clock.time(4, [&] {
      optimizer->zero_grad();
      l.total.backward();
      return 0;
    });
    clock.time(
        5, [&] { return clip_and_step(*optimizer, model->parameters(), config.learner.optimizer, device_step.get()); });
    clock.time(6, [&] {
      publisher.publish(*model, i);
      return 0;
    });
  }
  for (double ms : clock.ms()) p.phase_ms.push_back(ms / updates);

  // The same update queued as the learner queues it: one synchronisation
  // per update, at its end (the batch already assembled).
  VTraceLosses l;
  for (int i = 0; i < warmup + updates; ++i) {
    if (i == warmup) clock.reset();
    clock.time(0, [&] {
      vtrace_update(model, *dist, *optimizer, batch, config.learner, device, lr, l, 0, {}, device_step.get());
      publisher.publish(*model, i);
      return 0;
    });
  }
  p.unsynchronised_ms = clock.ms()[0] / updates;
  store.close();
  feeder.join();
  return p;
}

std::string format_learner_profile(const TrainConfig& config, const LearnerProfile& p) {
  std::string s = fmt::format(
      "learner profile: {} on {}, {} params, batch {} unrolls x {} steps = {:.0f} frames, mean of {} updates\n",
      config.model.torso, p.device, p.parameters, config.learner.batch_size, config.unroll_length, p.frames_per_update,
      p.updates);
  double sum = 0;
  for (double ms : p.phase_ms) sum += ms;
  s += fmt::format("  {:<24} {:>10} {:>7}\n", "phase (synchronised)", "ms/update", "share");
  for (std::size_t i = 0; i < p.phases.size(); ++i)
    s += fmt::format("  {:<24} {:>10.3f} {:>6.1f}%\n", p.phases[i], p.phase_ms[i],
                     sum > 0 ? 100 * p.phase_ms[i] / sum : 0);
  s += fmt::format("  {:<24} {:>10.3f}\n", "sum of phases", sum);
  s += fmt::format("  {:<24} {:>10.3f}   ({:.0f} frames/s; batch assembly not included)\n", "update, unsynchronised",
                   p.unsynchronised_ms, p.unsynchronised_ms > 0 ? 1e3 * p.frames_per_update / p.unsynchronised_ms : 0);
  return s;
}

}  // namespace seedrl::bench
