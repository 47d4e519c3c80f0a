// One soft actor-critic update on a batch of transitions (Haarnoja et al.
// 2018, algorithm 1 with the automatic temperature of "SAC Algorithms and
// Applications"): the temperature, then both critics towards the soft
// Bellman target of the target critics, then the actor through the
// reparameterised sample, then the targets by Polyak averaging. Each part has
// its own Adam state, as in the paper: one Adam holds the three as parameter
// groups (critics, actor, temperature), so that a checkpoint saves one
// optimizer, and each part's step (learner/device_optimizer_step.h) moves
// only its own parameters. The losses are learner/sac/sac_losses.h.
//
// Nothing is recorded by autograd: the networks' passes are written out by
// hand (learner/mlp_pass.h), and so are the gradients of the steps between
// them, the squashed Gaussian, the actor's and the temperature's losses
// (learner/sac/actor_gradients.h; the critics' is (q - y) / N). The actor's
// loss reaches the critics only through the gradient to the fresh action, and
// the actor only through the gradient to its output.
//
// With `critic_threads` 2 (a CPU learner), each twin critic's work runs on a
// thread of its own beside the other's: its target copy, its loss, backward
// pass and Adam step, its Polyak step, its value of the actor's fresh action
// and that value's gradient to the action. A 256-wide MLP's matmuls gain
// little from intra-op threads, two independent networks gain more
// (bench/RESULTS.md). The sampling noise is drawn before the threads split,
// so both ways compute the same update (up to float rounding), each the same
// from one run to the next.
//
// The update's serial tail, the actor's backward pass from the fresh action
// and its Adam step, can be left for later (update_but_actor_step) and run
// on the second thread beside the caller's next piece of work
// (finish_actor_step): a learner takes its next sample from the replay
// meanwhile. Nothing else reads what the tail writes, so the updates are the
// ones update() makes, in the same order. The caller's side of that step is
// short (a sample), so it also takes the next batch's first piece of work:
// both critics' values of its replayed actions (take_critic_values), which
// read only the critics, final since the last update's critic steps.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include <ATen/core/Generator.h>
#include <torch/optim/adam.h>

#include "seedrl/learner/device_optimizer_step.h"
#include "seedrl/learner/mlp_pass.h"
#include "seedrl/learner/replica_threads.h"
#include "seedrl/model/sac_net.h"
#include "seedrl/model/squashed_gaussian.h"

namespace seedrl::sac {

struct SacSettings {
  double tau = 0.005;           // Polyak rate of the target critics
  double target_entropy = 0;    // usually -dim (Haarnoja et al.)
  double learning_rate = 3e-4;  // all three optimizers
  double adam_eps = 1e-8;       // all three optimizers (--adam-eps)
  bool learn_temperature = true;
  int critic_threads = 1;     // 1 or 2: the twin critics one after the other, or side by side
  bool bf16_matmuls = false;  // the networks' hidden layers' matmuls on bfloat16 operands (learner/mlp_pass.h)
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
  // Throws std::invalid_argument for a critic_threads other than 1 or 2.
  SacUpdater(SacNet net, const SacSettings& settings);
  ~SacUpdater();
  // `generator`: where the actor's sampling noise comes from. The whole
  // update (an actor's step left by the one before it first).
  SacStats update(const TransitionBatch& batch, at::Generator& generator);
  // The update but its actor's step, which waits for finish_actor_step().
  SacStats update_but_actor_step(const TransitionBatch& batch, at::Generator& generator);
  // Runs the actor's step an update left, then `after` (publishing the
  // actor), beside `meanwhile` on the calling thread: on the second thread
  // with critic_threads 2, else first. With no step left, only `meanwhile`.
  void finish_actor_step(const std::function<void()>& after = {}, const std::function<void()>& meanwhile = {});
  bool actor_step_pending() const { return actor_step_pending_; }
  // Both critics' values of `batch`'s (obs, action), kept for the next
  // update if it gets this batch (the same tensors); any other update
  // drops them. Safe beside a pending actor step (as finish_actor_step's
  // `meanwhile`): it reads and writes nothing that step touches.
  void take_critic_values(const TransitionBatch& batch);
  // Parameter groups 0 critics, 1 actor, 2 log(alpha).
  torch::optim::Adam& optimizer() { return *optimizer_; }
  SacNet& net() { return net_; }
  const SacSettings& settings() const { return settings_; }

 private:
  // An update's parts that split in two: kActors samples the actor at s (lane
  // 0, with gradient) and at s' (lane 1, without); the others are critic j's
  // on lane j: its target copy at (s', a'); its half of the critics' loss, its
  // backward pass and Adam step and its Polyak step; its value of the fresh
  // action; that value's gradient to the action. kActorStep: the actor's
  // step left by an update (lane 1) beside the caller's work (lane 0).
  enum class Phase { kActors, kTargetCritics, kCriticLosses, kActorCritics, kActionGradients, kActorStep };
  struct Lane {
    SacCritic critic{nullptr}, target{nullptr};
    std::vector<torch::Tensor> params, target_params;
    std::unique_ptr<DeviceOptimizerStep> adam;   // this critic's parameters' Adam step
    std::unique_ptr<MlpPass> pass, target_pass;  // the critic's and its target's passes
    torch::Tensor input, target_input;           // [obs, action] rows the passes read
    torch::Tensor next_q, q, q_mean, half_loss, fresh_q, fresh_q_grad, action_grad;
  };
  // Runs `phase` on both lanes: side by side with the second thread, else in turn.
  void run_phase(Phase phase);
  void run_lane(int j);
  void clear_gradients();
  void actor_step();  // the actor's backward pass from the fresh action, and its Adam step
  void critic_value(Lane& lane, const TransitionBatch& batch);  // lane.q: the critic at the batch's (obs, action)

  SacNet net_;
  SacSettings settings_;
  std::unique_ptr<torch::optim::Adam> optimizer_;
  std::unique_ptr<DeviceOptimizerStep> actor_adam_, temperature_adam_;
  std::unique_ptr<MlpPass> actor_pass_, next_actor_pass_;  // the actor at s (lane 0), at s' (lane 1)
  Lane lanes_[2];
  std::unique_ptr<ReplicaThreads> threads_;  // lane 1's thread, with critic_threads 2
  std::function<void(int)> job_;             // run_lane, made once
  // What the running phase reads and writes; set by update() between phases.
  Phase phase_ = Phase::kActors;
  const TransitionBatch* batch_ = nullptr;
  torch::Tensor fresh_noise_, next_noise_, target_;
  torch::Tensor actor_out_;  // the actor's output at s (actor_pass_'s buffer, read by its backward pass)
  SquashedSample fresh_, next_;
  // The actor's step left by update_but_actor_step: the loss's gradient to
  // the fresh action and the log-probability's weight in it.
  bool actor_step_pending_ = false;
  torch::Tensor action_grad_;
  double log_prob_weight_ = 0;
  const std::function<void()>* after_actor_step_ = nullptr;  // kActorStep's work, set by finish_actor_step
  const std::function<void()>* meanwhile_ = nullptr;
  // The batch take_critic_values saw (its obs and action), whose values the lanes' q hold.
  torch::Tensor valued_obs_, valued_action_;
  bool values_taken_ = false;  // this update's lanes' q were taken ahead
};

}  // namespace seedrl::sac
