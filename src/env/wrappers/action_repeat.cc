#include "seedrl/env/wrappers/action_repeat.h"

#include <stdexcept>

namespace seedrl {

ActionRepeat::ActionRepeat(EnvPtr inner, int repeat) : inner_(std::move(inner)), repeat_(repeat) {
  if (repeat < 1) throw std::invalid_argument("--action-repeat must be at least 1");
}

StepResult ActionRepeat::step(const Action& action, void* obs) {
  StepResult total;
  for (int i = 0; i < repeat_; ++i) {
    const StepResult r = inner_->step(action, obs);
    total.reward += r.reward;
    total.terminated = r.terminated;
    total.truncated = r.truncated;
    total.life_lost = r.life_lost;
    if (r.terminated || r.truncated) break;
  }
  return total;
}

}  // namespace seedrl
