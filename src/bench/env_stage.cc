// Env stage alone: actor threads stepping their envs with random actions
// (and for atari:* the bare emulator loop beside it).
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <functional>
#include <latch>
#include <thread>
#include <vector>

#include <spdlog/spdlog.h>

#include "atari_raw_loop.h"
#include "football_raw_loop.h"
#include "measure_window.h"
#include "seedrl/env/random_action.h"
#include "seedrl/env/registry.h"
#include "seedrl/util/error_text.h"
#include "seedrl/util/rng.h"

namespace seedrl::bench {

namespace {

// `n` threads that each run body(index, ready): the body makes what it
// steps, calls ready(), and only then steps. release() returns once every
// thread is ready (or has failed), and lets them all go at once, so that
// making envs (slow for ALE, mostly its colour palette: docs/atari.md)
// stays out of the measured window.
class ThreadsStartedTogether {
 public:
  using Body = std::function<void(int, const std::function<void()>&)>;
  // `stop` ends the bodies' loops; set by the owner, or by the destructor.
  ThreadsStartedTogether(int n, const char* what, std::atomic<bool>& stop, const Body& body) : stop_(stop), ready_(n) {
    threads_.reserve(n);
    for (int a = 0; a < n; ++a) {
      threads_.emplace_back([this, a, what, body] {
        // Threads sleep until all exist: started busy, thousands of them on
        // a few cores would leave the creating thread a vanishing share of
        // the CPU (creation time grows with the square of the count).
        start_.wait();
        bool counted = false;
        const std::function<void()> ready = [&] {
          counted = true;
          ready_.count_down();
          go_.wait();
        };
        try {
          body(a, ready);
        } catch (const std::exception& e) {
          if (failures_.fetch_add(1) == 0) spdlog::error("bench env stage{}: {}", what, error_text(e));
        }
        if (!counted) ready_.count_down();
      });
    }
    start_.count_down();
  }
  ~ThreadsStartedTogether() {  // on an exception: never leaves a thread behind
    stop_.store(true);
    if (!released_) go_.count_down();
    join_all();
  }
  void release() {
    ready_.wait();
    released_ = true;
    go_.count_down();
  }
  // After `stop` was set: joins, and throws if any body failed.
  void join() {
    join_all();
    if (failures_.load() > 0) throw std::runtime_error("env stage failed (see the error above)");
  }
  bool failed() const { return failures_.load() > 0; }

 private:
  void join_all() {
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }
  std::atomic<bool>& stop_;
  bool released_ = false;
  std::latch start_{1}, ready_, go_{1};
  std::atomic<int> failures_{0};
  std::vector<std::thread> threads_;
};

// A bare loop's signature (atari_raw_loop.h, football_raw_loop.h).
using RawLoop = void (*)(const TrainConfig&, int, std::uint64_t, const std::function<void()>&, const std::atomic<bool>&,
                         std::atomic<std::uint64_t>&);

// The same threads and envs per thread as the env stage, each stepping the
// bare engine loop `loop`: its CPU-microseconds per step (0 when it made none).
double raw_cpu_us_per_step(const TrainConfig& config, const BenchTiming& timing, const char* what, RawLoop loop) {
  const int A = config.actors, K = config.envs_per_actor;
  std::vector<ThreadCount> steps(A);
  std::atomic<bool> stop{false};
  ThreadsStartedTogether threads(A, what, stop, [&](int a, const std::function<void()>& ready) {
    loop(config, K, derive_seed(config.seed, 2'000'000'000ull + a), ready, stop, steps[a].value);
  });
  threads.release();
  std::uint64_t s0 = 0, s1 = 0;
  const Window window = measure(
      timing, [&] { s0 = sum(steps); }, [&] { s1 = sum(steps); });
  stop.store(true);
  threads.join();
  return s1 > s0 ? window.cpu_us_per(static_cast<double>(s1 - s0)) : 0;
}

// The emulator-frame figures of `out` for atari:*.
void measure_raw_atari(const TrainConfig& config, const BenchTiming& timing, EnvStageResult& out) {
  const double raw_us = raw_cpu_us_per_step(config, timing, " (raw ALE loop)", run_raw_atari_loop);
  const int skip = config.env_options.frame_skip;
  out.frame_skip = skip;
  if (out.cpu_us_per_frame > 0) out.emulator_frames_per_cpu_s = skip * 1e6 / out.cpu_us_per_frame;
  if (raw_us > 0) out.raw_emulator_frames_per_cpu_s = skip * 1e6 / raw_us;
}

// The engine-step figures of `out` for football:*.
void measure_raw_football(const TrainConfig& config, const BenchTiming& timing, EnvStageResult& out) {
  const double raw_us = raw_cpu_us_per_step(config, timing, " (raw football loop)", run_raw_football_loop);
  if (out.cpu_us_per_frame > 0) out.football_steps_per_cpu_s = 1e6 / out.cpu_us_per_frame;
  if (raw_us > 0) out.raw_football_steps_per_cpu_s = 1e6 / raw_us;
}

// This process's resident memory in MB (Linux: /proc/self/statm).
double resident_mb() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  unsigned long size = 0, resident = 0;
  const int n = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  return n == 2 ? static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1 << 20) : 0;
}

}  // namespace

EnvStageResult bench_env_stage(const TrainConfig& config, const BenchTiming& timing) {
  const int A = config.actors, K = config.envs_per_actor;
  std::vector<ThreadCount> frames(A);
  std::atomic<bool> stop{false};
  const double mb_before = resident_mb();
  std::atomic<int> made{0};
  ThreadsStartedTogether threads(A, "", stop, [&](int a, const std::function<void()>& ready) {
    const auto& registry = EnvRegistry::builtin();
    std::vector<EnvPtr> envs;
    for (int k = 0; k < K; ++k) envs.push_back(registry.make(config.env, config.env_options));
    made.fetch_add(K);
    const EnvSpec& spec = envs[0]->spec();
    const std::size_t obs_bytes = spec.observation.bytes();
    const int width = spec.action.width();
    std::vector<std::uint8_t> obs(obs_bytes * K);
    std::vector<float> action(width);
    std::vector<char> done(K, 0);
    Rng rng(derive_seed(config.seed, 1'000'000'000ull + a));
    for (int k = 0; k < K; ++k) envs[k]->reset(derive_seed(config.seed, a * K + k), obs.data() + k * obs_bytes);
    ready();
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
  });
  threads.release();
  const double mb_after = resident_mb();
  std::uint64_t f0 = 0, f1 = 0;
  const Window window = measure(
      timing, [&] { f0 = sum(frames); }, [&] { f1 = sum(frames); },
      [&] { return sum(frames) > f0 || threads.failed(); });
  stop.store(true);
  threads.join();
  const auto stepped = static_cast<double>(f1 - f0);
  EnvStageResult result{stepped / window.seconds, window.cpu_us_per(stepped)};
  if (config.env.rfind("atari:", 0) == 0) measure_raw_atari(config, timing, result);
  if (config.env.rfind("football:", 0) == 0) {
    if (made.load() > 0) result.mb_per_env = (mb_after - mb_before) / made.load();
    measure_raw_football(config, timing, result);
  }
  return result;
}

}  // namespace seedrl::bench
