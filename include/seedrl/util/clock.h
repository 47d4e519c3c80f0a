// The two clocks a run reads: a steady one for durations, the wall clock for
// timestamps in metrics and TensorBoard events.
#pragma once

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

// Seconds since the Unix epoch.
inline double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace seedrl
