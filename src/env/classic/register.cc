// Classic-control environments (Gymnasium's constants and limits). Each is
// wrapped in a TimeLimit with the max_episode_steps of its Gymnasium registration.
#include <memory>

#include "seedrl/env/classic/acrobot.h"
#include "seedrl/env/classic/cartpole.h"
#include "seedrl/env/classic/mountain_car.h"
#include "seedrl/env/classic/mountain_car_continuous.h"
#include "seedrl/env/classic/pendulum.h"
#include "seedrl/env/registry.h"
#include "seedrl/env/wrappers/time_limit.h"

namespace seedrl {

namespace {
template <typename E>
EnvRegistry::Factory time_limited() {
  return [](const EnvOptions&) -> EnvPtr {
    return std::make_unique<TimeLimit>(std::make_unique<E>(), E::kMaxEpisodeSteps);
  };
}
}  // namespace

void register_classic_control(EnvRegistry& registry) {
  registry.add("cartpole", "CartPole-v1: balance a pole on a cart (Gymnasium)", time_limited<CartPole>());
  registry.add("acrobot", "Acrobot-v1: swing a two-link arm above the bar (Gymnasium)", time_limited<Acrobot>());
  registry.add("mountaincar", "MountainCar-v0: drive an underpowered car up a hill (Gymnasium)",
               time_limited<MountainCar>());
  registry.add("mountaincar-continuous", "MountainCarContinuous-v0: mountain car with a continuous force (Gymnasium)",
               time_limited<MountainCarContinuous>());
  registry.add("pendulum", "Pendulum-v1: swing up and balance a pendulum, continuous torque (Gymnasium)",
               time_limited<Pendulum>());
}

}  // namespace seedrl
