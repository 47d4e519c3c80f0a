// Classic-control environments (Gymnasium's constants and limits).
#include "seedrl/env/classic/cartpole.h"
#include "seedrl/env/registry.h"
#include "seedrl/env/wrappers/time_limit.h"

namespace seedrl {

void register_classic_control(EnvRegistry& registry) {
  registry.add("cartpole", "CartPole-v1: balance a pole on a cart (Gymnasium)",
               [](const EnvOptions&) -> EnvPtr {
                 return std::make_unique<TimeLimit>(std::make_unique<CartPole>(),
                                                    CartPole::kMaxEpisodeSteps);
               });
}

}  // namespace seedrl
