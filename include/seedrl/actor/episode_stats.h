// Completed-episode statistics shared by every actor: a ring of the last N
// returns and lengths. Episodes end rarely compared with steps, so a mutex is
// cheap here.
#pragma once

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <vector>

namespace seedrl {

class EpisodeStats {
 public:
  explicit EpisodeStats(std::size_t window = 100) : returns_(window), lengths_(window) {}

  void record(double episode_return, std::int64_t length) {
    std::lock_guard lock(mu_);
    returns_[count_ % returns_.size()] = episode_return;
    lengths_[count_ % lengths_.size()] = static_cast<double>(length);
    ++count_;
  }

  struct Summary {
    std::int64_t episodes = 0;
    std::int64_t in_window = 0;  // episodes the means are over (the window fills up to its size)
    std::int64_t window = 0;     // the window's size
    std::int64_t restored = 0;   // of the window's episodes, restored from a checkpoint
    double return_mean = 0;      // over the window; 0 before any episode
    double length_mean = 0;
  };

  Summary summary() const {
    std::lock_guard lock(mu_);
    Summary s;
    s.episodes = static_cast<std::int64_t>(count_) + base_;
    const std::size_t n = std::min<std::size_t>(count_, returns_.size());
    s.in_window = static_cast<std::int64_t>(n);
    s.window = static_cast<std::int64_t>(returns_.size());
    s.restored = restored_;
    for (std::size_t i = 0; i < n; ++i) {
      s.return_mean += returns_[i];
      s.length_mean += lengths_[i];
    }
    if (n > 0) {
      s.return_mean /= static_cast<double>(n);
      s.length_mean /= static_cast<double>(n);
    }
    return s;
  }

  // Episodes completed before a resume: `episodes` counted, and the last of
  // them (returns and lengths, oldest first) back in the window.
  void set_base(std::int64_t episodes, const std::vector<double>& returns = {},
                const std::vector<double>& lengths = {}) {
    std::lock_guard lock(mu_);
    const std::size_t n = std::min({returns.size(), lengths.size(), returns_.size()});
    const std::size_t skip = std::min(returns.size(), lengths.size()) - n;
    for (std::size_t i = 0; i < n; ++i) {
      returns_[i] = returns[skip + i];
      lengths_[i] = lengths[skip + i];
    }
    count_ = n;
    restored_ = static_cast<std::int64_t>(n);
    base_ = episodes - static_cast<std::int64_t>(n);
  }

  // Episodes other processes of the run ended (learner processes): counted,
  // not in this process's window.
  void add_elsewhere(std::int64_t episodes) {
    std::lock_guard lock(mu_);
    base_ += episodes;
  }

  // The window's returns and lengths, oldest first (for a checkpoint).
  void window(std::vector<double>& returns, std::vector<double>& lengths) const {
    std::lock_guard lock(mu_);
    const std::size_t n = std::min<std::size_t>(count_, returns_.size());
    returns.resize(n);
    lengths.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t at = (count_ - n + i) % returns_.size();
      returns[i] = returns_[at];
      lengths[i] = lengths_[at];
    }
  }

 private:
  mutable std::mutex mu_;
  std::vector<double> returns_, lengths_;
  std::size_t count_ = 0;
  std::int64_t base_ = 0;
  std::int64_t restored_ = 0;
};

}  // namespace seedrl
