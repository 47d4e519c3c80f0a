// A synthetic trajectory step for the learner benchmarks: a real observation
// (the env's first), action 0 (valid for every action space), zero policy
// parameters and core state, reward 1.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

#include "seedrl/env/env_step.h"
#include "seedrl/env/registry.h"
#include "seedrl/trainer/train_config.h"
#include "seedrl/trajectory/trajectory_store.h"

namespace seedrl::bench {

struct SyntheticStep {
  SyntheticStep(const TrainConfig& config, const UnrollLayout& layout)
      : obs(layout.observation.bytes()),
        action(layout.action_width, 0.f),
        policy(layout.policy_size, 0.f),
        core(std::max(1, layout.core_size), 0.f) {
    EnvRegistry::builtin().make(config.env, config.env_options)->reset(config.seed, obs.data());
  }
  StepRecord record(std::uint64_t t) const {
    return StepRecord{obs.data(),
                      action.data(),
                      policy.data(),
                      core.data(),
                      core.data(),
                      1.f,
                      static_cast<std::uint8_t>(t == 0 ? kFirst : 0)};
  }
  std::vector<std::uint8_t> obs;
  std::vector<float> action, policy, core;
};

// A thread that keeps `store`'s first `slots` slots appending `step`'s
// records until the store is closed.
inline std::thread feed_synthetic(TrajectoryStore& store, const SyntheticStep& step, int slots) {
  return std::thread([&store, &step, slots] {
    for (std::uint64_t t = 0;; ++t)
      for (int slot = 0; slot < slots; ++slot)
        if (!store.append(slot, step.record(t), 0)) return;
  });
}

}  // namespace seedrl::bench
