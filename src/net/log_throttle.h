// At most one log line per interval for an event that a flood of peers
// repeats (refused connections, failed accepts): the log must not grow with
// the flood. Not thread-safe: one caller at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <utility>

namespace seedrl::net {

class LogThrottle {
 public:
  explicit LogThrottle(std::chrono::milliseconds every) : every_(every) {}

  // Whether to log this one; if so, `skipped` is how many were not logged since the last line.
  bool allow(std::uint64_t& skipped) {
    const auto now = std::chrono::steady_clock::now();
    if (now < next_) {
      ++skipped_;
      return false;
    }
    next_ = now + every_;
    skipped = std::exchange(skipped_, 0);
    return true;
  }

 private:
  std::chrono::milliseconds every_;
  std::chrono::steady_clock::time_point next_{};
  std::uint64_t skipped_ = 0;
};

}  // namespace seedrl::net
