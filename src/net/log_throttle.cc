#include "log_throttle.h"

#include <utility>

#include <spdlog/spdlog.h>

namespace seedrl::net {

bool LogThrottle::allow(std::uint64_t& skipped) {
  const auto now = std::chrono::steady_clock::now();
  if (now < next_) {
    ++skipped_;
    return false;
  }
  next_ = now + every_;
  skipped = std::exchange(skipped_, 0);
  return true;
}

void RefusalLog::log(const std::string& peer, const std::string& why, Kind kind) {
  std::uint64_t skipped = 0;
  {
    std::lock_guard lock(mu_);
    if (!throttles_[kind].allow(skipped)) return;
  }
  spdlog::warn("remote actor {} refused: {}{}", peer, why,
               skipped ? spdlog::fmt_lib::format(" ({} more refused since the last such line)", skipped) : "");
}

}  // namespace seedrl::net
