// The clocks a run reads: a steady one for durations, the wall clock for
// timestamps in metrics and TensorBoard events, and a thread's CPU time for
// the start-up probes.
#pragma once

#include <time.h>

#include <chrono>
#include <cstdint>

namespace seedrl {

using SteadyClock = std::chrono::steady_clock;

inline double seconds_since(SteadyClock::time_point t0) {
  return std::chrono::duration<double>(SteadyClock::now() - t0).count();
}

// Nanoseconds since t0, for the stage timers.
inline std::uint64_t ns_since(SteadyClock::time_point t0) {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(SteadyClock::now() - t0).count());
}

// This thread's CPU time in ns: unlike wall time, it leaves out the time the
// thread waited for a CPU, which on a loaded machine can dwarf what is timed.
inline double thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e9 * static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec);
}

// The CPU time of every thread of the process in ns (intra-op threads too).
inline double process_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return 1e9 * static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec);
}

// Seconds since the Unix epoch.
inline double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace seedrl
