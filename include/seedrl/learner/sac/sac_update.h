// One soft actor-critic update on a batch of transitions (Haarnoja et al.
// 2018, algorithm 1 with the automatic temperature of "SAC Algorithms and
// Applications"): the temperature, then both critics towards the soft
// Bellman target of the target critics, then the actor through the
// reparameterised sample, then the targets by Polyak averaging. Each part has
// its own Adam state, as in the paper: one Adam holds the three as parameter
// groups (critics, actor, temperature), and each phase leaves the other
// groups without a gradient, which Adam skips, so that a checkpoint saves
// one optimizer. The losses are learner/sac/sac_losses.h.
#pragma once

#include <memory>

#include <ATen/core/Generator.h>
#include <torch/optim/adam.h>

#include "seedrl/model/sac_net.h"

namespace seedrl::sac {

struct SacSettings {
  double tau = 0.005;           // Polyak rate of the target critics
  double target_entropy = 0;    // usually -dim (Haarnoja et al.)
  double learning_rate = 3e-4;  // all three optimizers
  bool learn_temperature = true;
};

// Transitions in the squashed action space (-1, 1)^dim. `terminal`: 1 where
// the episode ended by the env's rules (no bootstrap); a time-limit
// truncation is 0 and bootstraps from next_obs. `discount`: gamma^k for a
// k-step transition, per transition ([N], or a scalar tensor).
struct TransitionBatch {
  torch::Tensor obs, action, reward, terminal, next_obs, discount;
};

struct SacStats {
  double critic_loss = 0, actor_loss = 0, temperature_loss = 0;
  double alpha = 0;    // the temperature the update used
  double entropy = 0;  // -mean log pi of the actor's fresh samples
  double q_mean = 0;   // mean Q1 of the batch's actions
};

class SacUpdater {
 public:
  SacUpdater(SacNet net, const SacSettings& settings);
  // `generator`: where the actor's sampling noise comes from.
  SacStats update(const TransitionBatch& batch, at::Generator& generator);
  // Parameter groups 0 critics, 1 actor, 2 log(alpha).
  torch::optim::Adam& optimizer() { return *optimizer_; }
  SacNet& net() { return net_; }
  const SacSettings& settings() const { return settings_; }

 private:
  // Steps `group` on the gradient of `loss` alone.
  void step_group(std::size_t group, const torch::Tensor& loss);

  SacNet net_;
  SacSettings settings_;
  std::unique_ptr<torch::optim::Adam> optimizer_;
};

}  // namespace seedrl::sac
