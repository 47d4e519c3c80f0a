// Inference stage alone: actor threads that step no envs submit fixed
// observations through the inference devices' batchers (actor a to device
// a % N, as in training); nothing is recorded.
#include <algorithm>

#include <spdlog/spdlog.h>
#include <torch/torch.h>

#include "measure_window.h"
#include "seedrl/actor/actor_pool.h"
#include "seedrl/inference/inference_fleet.h"
#include "seedrl/trainer/placement.h"
#include "seedrl/util/actor_thread_priority.h"
#include "seedrl/util/futex_hash.h"

namespace seedrl::bench {

namespace {

double percentile(std::vector<float>& v, double q) {
  if (v.empty()) return 0;
  const auto k = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

}  // namespace

InferenceStageResult bench_inference_stage(const TrainConfig& config, const BenchTiming& timing) {
  const EnvSpec spec = EnvRegistry::builtin().make(config.env, config.env_options)->spec();
  const int policy_size = make_policy_distribution(spec.action)->param_size();
  auto make_model = [&] { return AgentNet(spec, config.model, policy_size); };
  const int A = config.actors, K = config.envs_per_actor;
  const int width = spec.action.width();

  // One real observation, shared read-only by every synthetic request.
  std::vector<std::uint8_t> obs(spec.observation.bytes());
  EnvRegistry::builtin().make(config.env, config.env_options)->reset(config.seed, obs.data());

  ParamPublisher publisher;
  publisher.publish(*make_model(), 0);
  InferenceFleet inference(resolve_placement(config).inference, inference_fleet_config(config, spec.observation, 0),
                           nullptr, publisher, make_model, spec.action);

  // Round-trip latencies, kept per thread in a preallocated ring while the
  // window is open.
  const std::size_t ring = std::max<std::size_t>(64, 400'000 / static_cast<std::size_t>(A));
  std::vector<std::vector<float>> latencies(A, std::vector<float>(ring));
  std::vector<std::size_t> recorded(A, 0);
  std::vector<ThreadCount> requests(A);
  std::atomic<bool> stop{false}, recording{false};
  std::vector<std::thread> actors;
  actors.reserve(A);
  inference.start();
  reserve_futex_hash(A);  // as ActorPool does
  for (int a = 0; a < A; ++a) {
    actors.emplace_back([&, a] {
      lower_actor_thread_priority(config.actor_nice);
      std::vector<float> actions(static_cast<std::size_t>(width) * K);
      std::vector<EnvStep> steps(K);
      for (int k = 0; k < K; ++k) {
        steps[k].slot = a * K + k;
        steps[k].obs = obs.data();
        steps[k].action = actions.data() + k * width;
        steps[k].flags = kFirst;
      }
      RequestBatcher& batcher = *inference.batchers()[static_cast<std::size_t>(a) % inference.batchers().size()];
      Completion completion;
      completion.yields = actors_yield(A);
      std::uint64_t sent = 0;
      std::size_t n = 0;
      while (!stop.load(std::memory_order_relaxed)) {
        const auto t0 = Clock::now();
        if (!batcher.submit(steps, completion)) break;
        const auto dt = std::chrono::duration<float, std::micro>(Clock::now() - t0).count();
        for (auto& s : steps) s.flags = 0;
        sent += static_cast<std::uint64_t>(K);
        requests[a].value.store(sent, std::memory_order_relaxed);
        if (recording.load(std::memory_order_relaxed)) latencies[a][n++ % ring] = dt;
      }
      recorded[a] = std::min(n, ring);
    });
  }
  struct Snapshot {
    std::uint64_t requests = 0, batches = 0, rows = 0, forward_ns = 0;
  };
  auto snapshot = [&] {
    const InferenceTotals t = inference.totals();
    return Snapshot{sum(requests), t.batches, t.rows, t.forward_ns};
  };
  Snapshot s0, s1;
  const Window window = measure(
      timing,
      [&] {
        s0 = snapshot();
        recording.store(true);
      },
      [&] {
        recording.store(false);
        s1 = snapshot();
      },
      [&] {
        const Snapshot now = snapshot();
        return now.requests > s0.requests && now.batches > s0.batches;
      });
  stop.store(true);
  inference.stop();
  for (auto& t : actors) t.join();

  std::vector<float> all;
  for (int a = 0; a < A; ++a) all.insert(all.end(), latencies[a].begin(), latencies[a].begin() + recorded[a]);
  InferenceStageResult r;
  const auto answered = static_cast<double>(s1.requests - s0.requests);
  r.requests_per_s = answered / window.seconds;
  r.cpu_us_per_frame = window.cpu_us_per(answered);
  r.latency_p50_us = percentile(all, 0.50);
  r.latency_p90_us = percentile(all, 0.90);
  r.latency_p99_us = percentile(all, 0.99);
  const double batches = static_cast<double>(s1.batches - s0.batches);
  if (batches > 0) {
    r.batch_mean = static_cast<double>(s1.rows - s0.rows) / batches;
    r.forward_ms_mean = static_cast<double>(s1.forward_ns - s0.forward_ns) / 1e6 / batches;
  }
  return r;
}

}  // namespace seedrl::bench
