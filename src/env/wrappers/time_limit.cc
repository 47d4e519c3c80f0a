#include "seedrl/env/wrappers/time_limit.h"

namespace seedrl {

TimeLimit::TimeLimit(EnvPtr inner, int max_steps)
    : inner_(std::move(inner)), spec_(inner_->spec()), max_steps_(max_steps) {
  spec_.max_episode_steps = max_steps;
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
