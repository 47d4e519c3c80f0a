// Learner hyper-parameters; plain data shared by the CLI and the learner.
#pragma once

#include <cstdint>
#include <string>

#include "seedrl/learner/vtrace/vtrace.h"

namespace seedrl {

struct OptimizerConfig {
  std::string name = "adam";  // adam | rmsprop
  double learning_rate = 1e-3;
  double adam_beta1 = 0.9, adam_beta2 = 0.999, adam_eps = 1e-8;
  double rmsprop_alpha = 0.99, rmsprop_eps = 0.01, rmsprop_momentum = 0.0;
  double max_grad_norm = 40.0;  // global norm; <= 0 disables clipping
};

struct VTraceLossConfig {
  double discount = 0.99;
  double baseline_cost = 0.5;
  double entropy_cost = 0.01;
  // >= 0: the entropy cost moves linearly from entropy_cost to this over
  // max_frames, as the learning rate decays (an exploration schedule);
  // < 0: entropy_cost throughout.
  double entropy_cost_final = -1;
  double reward_clip = 0.0;   // > 0: rewards clamped to [-c, c]
  double reward_scale = 1.0;  // rewards multiplied by this (after clipping)
  // > 0: the policy-gradient term becomes PPO's clipped surrogate (as APPO in
  // Sample Factory): -min(r A, clip(r, 1 - c, 1 + c) A) with r = pi/mu and A
  // the V-trace advantage. It bounds how far --epochs passes over one batch
  // move the policy from the one that acted.
  double ppo_clip = 0.0;
  // With ppo_clip: the ratio is taken against the proximal policy, the
  // weights before the batch's first optimizer step, r = pi/pi_prox, and the
  // surrogate is weighted by min(pg_rho_bar, pi_prox/mu) (Hilton et al. 2021,
  // "Batch size-invariance for policy optimization": decoupled PPO). Against
  // mu, an unroll that waited several updates in the queue may already lie
  // past the clip and teach nothing; against pi_prox every batch starts its
  // trust region afresh and the weight corrects for the policy that acted.
  bool ppo_decoupled = false;
  // The value targets v_s and the advantages computed once per batch, from
  // the weights before its first optimizer step (as PPO computes GAE once per
  // rollout), and held through every epoch and minibatch. Otherwise each pass
  // recomputes them from the weights it trains: as the value fits a batch over
  // the epochs, its advantages shrink towards the fit's residual, and the
  // normalised policy gradient of the later passes follows that noise.
  bool fixed_targets = false;
  // The policy gradient's advantages scaled to mean 0 and standard deviation 1
  // over the batch's valid steps (PPO's and APPO's default): the entropy cost
  // and the value loss then weigh the same against the policy gradient
  // whatever the rewards' scale.
  bool normalize_advantages = false;
  VTraceOptions vtrace;
};

struct LearnerConfig {
  int batch_size = 32;
  std::int64_t max_frames = 3'000'000;  // learning rate reaches 0 here
  // Gradient steps taken on each batch. Passes after the first are off-policy
  // by the updates already made; V-trace's clipped importance weights correct
  // for that, as they do for policy lag.
  int epochs = 1;
  // Each epoch's pass split into this many minibatches of whole unrolls,
  // shuffled every epoch, one optimizer step each (PPO's and APPO's
  // minibatches): epochs x minibatches steps per batch. Must divide the batch.
  int minibatches = 1;
  OptimizerConfig optimizer;
  VTraceLossConfig loss;
};

}  // namespace seedrl
