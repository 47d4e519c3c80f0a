// Env stage alone: actor threads stepping their envs with random actions
// (and for atari:* the bare emulator loop beside it).
#include <latch>

#include <spdlog/spdlog.h>

#include "atari_raw_loop.h"
#include "measure_window.h"
#include "seedrl/env/random_action.h"
#include "seedrl/env/registry.h"
#include "seedrl/util/rng.h"
#include "seedrl/util/error_text.h"

namespace seedrl::bench {

namespace {

// The same threads and envs per thread as the env stage, stepping bare
// emulators (atari_raw_loop.h); fills the emulator-frame figures of `out`.
void measure_raw_atari(const TrainConfig& config, const BenchTiming& timing, EnvStageResult& out) {
  const int A = config.actors, K = config.envs_per_actor;
  std::vector<ThreadCount> steps(A);
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  std::latch start(1);
  std::vector<std::thread> threads;
  threads.reserve(A);
  for (int a = 0; a < A; ++a) {
    threads.emplace_back([&, a] {
      start.wait();
      try {
        run_raw_atari_loop(config, K, derive_seed(config.seed, 2'000'000'000ull + a), stop, steps[a].value);
      } catch (const std::exception& e) {
        if (failures.fetch_add(1) == 0) spdlog::error("bench env stage (raw ALE loop): {}", error_text(e));
      }
    });
  }
  start.count_down();
  std::uint64_t s0 = 0, s1 = 0;
  const Window window = measure(timing, [&] { s0 = sum(steps); }, [&] { s1 = sum(steps); });
  stop.store(true);
  for (auto& t : threads) t.join();
  if (failures.load() > 0) throw std::runtime_error("env stage failed (see the error above)");
  const int skip = config.env_options.frame_skip;
  const auto raw_steps = static_cast<double>(s1 - s0);
  out.frame_skip = skip;
  if (out.cpu_us_per_frame > 0) out.emulator_frames_per_core_s = skip * 1e6 / out.cpu_us_per_frame;
  if (raw_steps > 0) out.raw_emulator_frames_per_core_s = skip * 1e6 / window.cpu_us_per(raw_steps);
}

}  // namespace

EnvStageResult bench_env_stage(const TrainConfig& config, const BenchTiming& timing) {
  const int A = config.actors, K = config.envs_per_actor;
  std::vector<ThreadCount> frames(A);
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  // Threads sleep here until all exist: started busy, thousands of them on a
  // few cores would leave the creating thread a vanishing share of the CPU
  // (creation time grows with the square of the count).
  std::latch start(1);
  std::vector<std::thread> threads;
  threads.reserve(A);
  for (int a = 0; a < A; ++a) {
    threads.emplace_back([&, a] {
      start.wait();
      try {
        const auto& registry = EnvRegistry::builtin();
        std::vector<EnvPtr> envs;
        for (int k = 0; k < K; ++k) envs.push_back(registry.make(config.env, config.env_options));
        const EnvSpec& spec = envs[0]->spec();
        const std::size_t obs_bytes = spec.observation.bytes();
        const int width = spec.action.width();
        std::vector<std::uint8_t> obs(obs_bytes * K);
        std::vector<float> action(width);
        std::vector<char> done(K, 0);
        Rng rng(derive_seed(config.seed, 1'000'000'000ull + a));
        for (int k = 0; k < K; ++k) envs[k]->reset(derive_seed(config.seed, a * K + k), obs.data() + k * obs_bytes);
        std::uint64_t stepped = 0;
        while (!stop.load(std::memory_order_relaxed)) {
          for (int k = 0; k < K; ++k) {
            void* o = obs.data() + k * obs_bytes;
            if (done[k]) {
              envs[k]->reset(std::nullopt, o);
              done[k] = 0;
              continue;
            }
            const StepResult r = envs[k]->step(sample_random_action(spec.action, rng, action.data()), o);
            done[k] = r.terminated || r.truncated;
            ++stepped;
          }
          frames[a].value.store(stepped, std::memory_order_relaxed);
        }
      } catch (const std::exception& e) {
        if (failures.fetch_add(1) == 0) spdlog::error("bench env stage: {}", error_text(e));
      }
    });
  }
  start.count_down();
  std::uint64_t f0 = 0, f1 = 0;
  const Window window = measure(
      timing, [&] { f0 = sum(frames); }, [&] { f1 = sum(frames); }, [&] { return sum(frames) > f0 || failures.load() > 0; });
  stop.store(true);
  for (auto& t : threads) t.join();
  if (failures.load() > 0) throw std::runtime_error("env stage failed (see the error above)");
  const auto stepped = static_cast<double>(f1 - f0);
  EnvStageResult result{stepped / window.seconds, window.cpu_us_per(stepped)};
  if (config.env.rfind("atari:", 0) == 0) measure_raw_atari(config, timing, result);
  return result;
}

}  // namespace seedrl::bench
