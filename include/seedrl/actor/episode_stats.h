// Completed-episode statistics shared by every actor: a ring of the last N
// returns and lengths, and of how they ended where the env says
// (episode_outcome.h). Episodes end rarely compared with steps, so a mutex is
// cheap here.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace seedrl {

class EpisodeStats {
 public:
  explicit EpisodeStats(std::size_t window = 100) : returns_(window), lengths_(window), outcomes_(window, -1) {}

  // `outcome`: an index into outcome_names(), or -1 when the env did not say.
  void record(double episode_return, std::int64_t length, int outcome = -1) {
    std::lock_guard lock(mu_);
    returns_[count_ % returns_.size()] = episode_return;
    lengths_[count_ % lengths_.size()] = static_cast<double>(length);
    outcomes_[count_ % outcomes_.size()] = outcome;
    ++count_;
  }

  // The phrases record()'s outcome indices name: the env's
  // episode_outcomes(). The first call names them (every actor's envs are of
  // one kind); later ones change nothing.
  void name_outcomes(std::span<const char* const> names) {
    std::lock_guard lock(mu_);
    if (!outcome_names_.empty()) return;
    outcome_names_.assign(names.begin(), names.end());
  }
  std::vector<std::string> outcome_names() const {
    std::lock_guard lock(mu_);
    return outcome_names_;
  }
  // Per outcome name, the share of the window's episodes that ended so, out
  // of those that said how they ended (episodes restored by a resume or from
  // remote actors do not); NaN while there are none.
  std::vector<double> outcome_shares() const {
    std::lock_guard lock(mu_);
    std::vector<double> shares(outcome_names_.size(), 0.0);
    const std::size_t n = std::min<std::size_t>(count_, outcomes_.size());
    double said = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const int o = outcomes_[i];
      if (o < 0 || static_cast<std::size_t>(o) >= shares.size()) continue;
      shares[static_cast<std::size_t>(o)] += 1;
      said += 1;
    }
    for (double& v : shares) v = said > 0 ? v / said : std::numeric_limits<double>::quiet_NaN();
    return shares;
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
      outcomes_[i] = -1;
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
  std::vector<int> outcomes_;
  std::vector<std::string> outcome_names_;
  std::size_t count_ = 0;
  std::int64_t base_ = 0;
  std::int64_t restored_ = 0;
};

}  // namespace seedrl
