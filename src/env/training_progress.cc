#include "seedrl/env/training_progress.h"

#include "seedrl/env/env.h"

namespace seedrl {

void set_training_progress(Env& env, double fraction) {
  if (auto* p = dynamic_cast<TrainingProgress*>(&env)) p->set_training_progress(fraction);
}

}  // namespace seedrl
