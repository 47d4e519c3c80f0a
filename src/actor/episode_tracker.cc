#include "seedrl/actor/episode_tracker.h"

namespace seedrl {

void EpisodeTracker::reset(std::size_t slots) {
  returns_.assign(slots, 0.0);
  lengths_.assign(slots, 0);
  first_due_.assign(slots, 1);
  game_goes_on_.assign(slots, 0);
}

std::int64_t EpisodeTracker::add(std::span<const EnvStep> steps) {
  std::int64_t stepped = 0;
  for (std::size_t k = 0; k < steps.size(); ++k) stepped += add(k, steps[k].reward, steps[k].flags);
  return stepped;
}

void EpisodeTracker::finish(std::size_t k, int outcome) {
  stats_.record(returns_[k], lengths_[k], outcome);
  returns_[k] = 0;
  lengths_[k] = 0;
}

}  // namespace seedrl
