// MuJoCo locomotion environments (Gymnasium v4 semantics, 1000-step limit).
// Without libmujoco the names still register, and making one throws a clear error.
#include <stdexcept>
#include <string>

// The env headers need no MuJoCo headers, so they are included either way.
#include "seedrl/env/mujoco/ant.h"
#include "seedrl/env/mujoco/half_cheetah.h"
#include "seedrl/env/mujoco/hopper.h"
#include "seedrl/env/mujoco/walker2d.h"
#include "seedrl/env/registry.h"
#include "seedrl/env/wrappers/time_limit.h"

namespace seedrl {

namespace {
constexpr int kMaxEpisodeSteps = 1000;  // Gymnasium's v4 registrations

template <typename EnvT>
EnvRegistry::Factory mujoco_factory([[maybe_unused]] const char* name) {
#if SEEDRL_HAVE_MUJOCO
  return [](const EnvOptions&) -> EnvPtr {
    return std::make_unique<TimeLimit>(std::make_unique<EnvT>(), kMaxEpisodeSteps);
  };
#else
  return [n = std::string(name)](const EnvOptions&) -> EnvPtr {
    throw std::runtime_error(n +
                             " needs MuJoCo, but seedrl was built without libmujoco "
                             "(install libmujoco-dev and reconfigure)");
  };
#endif
}
}  // namespace

void register_mujoco(EnvRegistry& registry) {
  registry.add("mujoco:halfcheetah", "HalfCheetah-v4: make a planar cheetah run (MuJoCo)",
               mujoco_factory<HalfCheetah>("mujoco:halfcheetah"));
  registry.add("mujoco:hopper", "Hopper-v4: hop forward on one leg without falling (MuJoCo)",
               mujoco_factory<Hopper>("mujoco:hopper"));
  registry.add("mujoco:walker2d", "Walker2d-v4: walk forward on two legs (MuJoCo)",
               mujoco_factory<Walker2d>("mujoco:walker2d"));
  registry.add("mujoco:ant", "Ant-v4: make a four-legged ant walk forward (MuJoCo)", mujoco_factory<Ant>("mujoco:ant"));
}

}  // namespace seedrl
