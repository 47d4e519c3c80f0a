#include "socket_budget.h"

#include <algorithm>
#include <limits>

#include "seedrl/net/descriptor_reserve.h"

namespace seedrl::net {

void SocketBudget::start(std::size_t reserve, int max_lingering) {
  std::lock_guard lock(mu_);
  cap_ = static_cast<int>(std::min<std::size_t>(socket_budget(reserve), std::numeric_limits<int>::max()));
  max_lingering_ = max_lingering;
}

bool SocketBudget::take() {
  std::lock_guard lock(mu_);
  if (held_ >= cap_) return false;
  ++held_;
  return true;
}

bool SocketBudget::linger() {
  std::lock_guard lock(mu_);
  if (lingering_ >= max_lingering_) return false;
  ++lingering_;
  return true;
}

void SocketBudget::release(bool lingered) {
  {
    std::lock_guard lock(mu_);
    --held_;
    if (lingered) --lingering_;
  }
  cv_.notify_all();
}

void SocketBudget::wait_all_released() {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return held_ == 0; });
}

int SocketBudget::held() const {
  std::lock_guard lock(mu_);
  return held_;
}

int SocketBudget::cap() const {
  std::lock_guard lock(mu_);
  return cap_;
}

}  // namespace seedrl::net
