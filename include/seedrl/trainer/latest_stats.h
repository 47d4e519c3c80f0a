// The learner thread's latest step statistics, read by the run monitor's
// thread: none before this process's first step (a resumed R2D2 run refills
// its replay first), so a metrics line reports no loss rather than a loss of 0.
#pragma once

#include <mutex>
#include <optional>

namespace seedrl {

template <class Stats>
class LatestStats {
 public:
  void set(const Stats& stats) {
    std::lock_guard lock(mu_);
    last_ = stats;
  }
  std::optional<Stats> get() const {
    std::lock_guard lock(mu_);
    return last_;
  }

 private:
  mutable std::mutex mu_;
  std::optional<Stats> last_;
};

}  // namespace seedrl
