#include "seedrl/env/episode_outcome.h"

#include <cstring>

#include "seedrl/env/env.h"

namespace seedrl {

const char* episode_outcome(const Env& env) {
  const auto* o = dynamic_cast<const EpisodeOutcome*>(&env);
  return o != nullptr ? o->episode_outcome() : nullptr;
}

std::span<const char* const> episode_outcomes(const Env& env) {
  const auto* o = dynamic_cast<const EpisodeOutcome*>(&env);
  return o != nullptr ? o->episode_outcomes() : std::span<const char* const>{};
}

int episode_outcome_index(const Env& env) {
  const auto* o = dynamic_cast<const EpisodeOutcome*>(&env);
  if (o == nullptr) return -1;
  const char* how = o->episode_outcome();
  if (how == nullptr) return -1;
  const std::span<const char* const> all = o->episode_outcomes();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i] == how || std::strcmp(all[i], how) == 0) return static_cast<int>(i);
  return -1;
}

}  // namespace seedrl
