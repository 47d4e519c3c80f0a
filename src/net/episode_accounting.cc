#include "episode_accounting.h"

namespace seedrl::net {

void EpisodeAccounting::reset(std::size_t envs) {
  returns_.assign(envs, 0.0);
  lengths_.assign(envs, 0);
  expect_first_.assign(envs, 1);
}

std::int64_t EpisodeAccounting::add(std::span<const EnvStep> steps, EpisodeStats& episodes) {
  std::int64_t stepped = 0;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const EnvStep& st = steps[k];
    if (st.flags & kFirst) continue;  // a reset, not a step
    ++stepped;
    returns_[k] += st.reward;
    ++lengths_[k];
    if (is_last(st.flags)) {
      episodes.record(returns_[k], lengths_[k]);
      returns_[k] = 0;
      lengths_[k] = 0;
    }
  }
  return stepped;
}

}  // namespace seedrl::net
