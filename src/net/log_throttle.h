// At most one log line per interval for an event that a flood of peers
// repeats (refused connections, failed accepts): the log must not grow with
// the flood.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace seedrl::net {

// Not thread-safe: one caller at a time.
class LogThrottle {
 public:
  explicit LogThrottle(std::chrono::milliseconds every) : every_(every) {}

  // Whether to log this one; if so, `skipped` is how many were not logged since the last line.
  bool allow(std::uint64_t& skipped);

 private:
  std::chrono::milliseconds every_;
  std::chrono::steady_clock::time_point next_{};
  std::uint64_t skipped_ = 0;
};

// The learner's "remote actor PEER refused: WHY" lines, one per second at
// most for each kind, so that idle peers cannot hide a wrong token. Thread-safe.
class RefusalLog {
 public:
  enum Kind { kSilent, kBadHello };  // busy, idle or gone peers | a HELLO that says something wrong
  void log(const std::string& peer, const std::string& why, Kind kind);

 private:
  std::mutex mu_;
  LogThrottle throttles_[2] = {LogThrottle(std::chrono::milliseconds(1000)),
                               LogThrottle(std::chrono::milliseconds(1000))};
};

}  // namespace seedrl::net
