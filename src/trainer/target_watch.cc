#include "seedrl/trainer/target_watch.h"

#include <limits>

namespace seedrl {

TargetWatch::TargetWatch(std::optional<double> target, std::optional<TargetReached> before) : target_(target) {
  if (target_ && before && before->target == *target_) reached_ = before;
}

bool TargetWatch::check(const EpisodeStats::Summary& episodes, std::int64_t frames, double wall_seconds,
                        std::int64_t learner_steps) {
  if (!target_) return false;
  std::lock_guard lock(mu_);
  if (reached_ || episodes.window <= 0 || episodes.in_window < episodes.window || episodes.return_mean < *target_)
    return false;
  reached_ = TargetReached{*target_, episodes.return_mean, frames, wall_seconds, learner_steps, episodes.episodes};
  return true;
}

std::optional<TargetReached> TargetWatch::reached() const {
  std::lock_guard lock(mu_);
  return reached_;
}

void TargetWatch::add_to(Scalars& out) const {
  if (!target_) return;
  const std::optional<TargetReached> r = reached();
  const double none = std::numeric_limits<double>::quiet_NaN();
  out["target_return"] = *target_;
  out["target_mean_return"] = r ? r->mean_return : none;
  out["target_frames"] = r ? static_cast<double>(r->frames) : none;
  out["target_wall_seconds"] = r ? r->wall_seconds : none;
  out["target_learner_steps"] = r ? static_cast<double>(r->learner_steps) : none;
  out["target_episodes"] = r ? static_cast<double>(r->episodes) : none;
}

}  // namespace seedrl
