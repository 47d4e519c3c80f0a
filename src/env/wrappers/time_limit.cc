#include "seedrl/env/wrappers/time_limit.h"

#include <algorithm>

namespace seedrl {

TimeLimit::TimeLimit(EnvPtr inner, int max_steps)
    : inner_(std::move(inner)), spec_(inner_->spec()), max_steps_(max_steps) {
  // An outer limit can only shorten an inner one.
  const int inner_limit = spec_.max_episode_steps;
  spec_.max_episode_steps = inner_limit > 0 ? std::min(inner_limit, max_steps) : max_steps;
}

void TimeLimit::reset(std::optional<std::uint64_t> seed, void* obs) {
  elapsed_ = 0;
  inner_->reset(seed, obs);
}

StepResult TimeLimit::step(const Action& action, void* obs) {
  StepResult r = inner_->step(action, obs);
  if (++elapsed_ >= max_steps_ && !r.terminated) r.truncated = true;
  return r;
}

}  // namespace seedrl
