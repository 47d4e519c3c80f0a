#include "seedrl/env/training_progress.h"

#include <algorithm>

#include "seedrl/env/env.h"

namespace seedrl {

double training_progress(std::int64_t frames, std::int64_t max_frames) {
  return std::min(1.0, static_cast<double>(frames) / static_cast<double>(max_frames));
}

void set_training_progress(Env& env, double fraction) {
  if (auto* p = dynamic_cast<TrainingProgress*>(&env)) p->set_training_progress(fraction);
}

}  // namespace seedrl
