// MinAtar games (Young & Tian 2019), one registry.add per game. Options:
// sticky_action_prob and difficulty_ramping. No time limit is added: the
// reference has none (Freeway ends by its own 2500-frame rule).
#include "seedrl/env/minatar/asterix.h"
#include "seedrl/env/minatar/breakout.h"
#include "seedrl/env/minatar/freeway.h"
#include "seedrl/env/minatar/seaquest.h"
#include "seedrl/env/minatar/space_invaders.h"
#include "seedrl/env/registry.h"

namespace seedrl {

void register_minatar(EnvRegistry& registry) {
  registry.add("minatar:breakout", "MinAtar Breakout: bounce a ball into rows of bricks",
               [](const EnvOptions& o) -> EnvPtr { return std::make_unique<minatar::Breakout>(o); });
  registry.add("minatar:freeway", "MinAtar Freeway: cross eight lanes of traffic",
               [](const EnvOptions& o) -> EnvPtr { return std::make_unique<minatar::Freeway>(o); });
  registry.add("minatar:asterix", "MinAtar Asterix: collect gold, dodge enemies",
               [](const EnvOptions& o) -> EnvPtr { return std::make_unique<minatar::Asterix>(o); });
  registry.add("minatar:seaquest", "MinAtar Seaquest: shoot enemies, rescue divers, surface for oxygen",
               [](const EnvOptions& o) -> EnvPtr { return std::make_unique<minatar::Seaquest>(o); });
  registry.add("minatar:space_invaders", "MinAtar Space Invaders: shoot the descending aliens",
               [](const EnvOptions& o) -> EnvPtr { return std::make_unique<minatar::SpaceInvaders>(o); });
}

}  // namespace seedrl
