#include "seedrl/env/episode_outcome.h"

#include "seedrl/env/env.h"

namespace seedrl {

const char* episode_outcome(const Env& env) {
  const auto* o = dynamic_cast<const EpisodeOutcome*>(&env);
  return o != nullptr ? o->episode_outcome() : nullptr;
}

}  // namespace seedrl
