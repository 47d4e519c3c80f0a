// Shared by the stage benchmarks: per-thread counters that only their owner
// writes, and the warm-up-then-measure window every stage uses.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include <time.h>

#include "seedrl/bench/stage_bench.h"

namespace seedrl::bench {

using Clock = std::chrono::steady_clock;

// One per thread, on its own cache line: the owner stores running totals.
struct alignas(64) ThreadCount {
  std::atomic<std::uint64_t> value{0};
};

inline std::uint64_t sum(const std::vector<ThreadCount>& counts) {
  std::uint64_t s = 0;
  for (const auto& c : counts) s += c.value.load(std::memory_order_relaxed);
  return s;
}

inline double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

inline void sleep_s(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

// CPU time of every thread of this process, in seconds.
inline double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Polls `done` every 10 ms until it holds or `limit` passes; returns done().
template <typename Done>
bool wait_until(Done&& done, std::chrono::seconds limit) {
  const auto deadline = Clock::now() + limit;
  while (!done() && Clock::now() < deadline) sleep_s(0.01);
  return done();
}

// The measured window: its length, and the CPU time the whole process used in
// it (the stage's threads; the sleeping caller adds nothing).
struct Window {
  double seconds = 0;
  double cpu_seconds = 0;
  // CPU-microseconds per frame for `frames` frames in the window.
  double cpu_us_per(double frames) const { return frames > 0 ? cpu_seconds * 1e6 / frames : 0; }
};

// Sleeps through the warm-up, calls `at_start` and `at_end` around the
// measured window, and returns the window. The window lasts `timing.seconds`,
// and then on while `progressed()` says the stage has not yet counted what its
// figures need (a loaded machine can leave a short window with no progress,
// which measures nothing), up to 60 s more. Rates divide by the window's real
// length either way.
template <typename AtStart, typename AtEnd, typename Progressed>
Window measure(const BenchTiming& timing, AtStart&& at_start, AtEnd&& at_end, Progressed&& progressed) {
  sleep_s(timing.warmup_s);
  at_start();
  const auto t0 = Clock::now();
  const double cpu0 = process_cpu_seconds();
  sleep_s(timing.seconds);
  wait_until(progressed, std::chrono::seconds(60));
  at_end();
  return {seconds_between(t0, Clock::now()), process_cpu_seconds() - cpu0};
}

// A window of exactly `timing.seconds`.
template <typename AtStart, typename AtEnd>
Window measure(const BenchTiming& timing, AtStart&& at_start, AtEnd&& at_end) {
  return measure(timing, at_start, at_end, [] { return true; });
}

}  // namespace seedrl::bench
