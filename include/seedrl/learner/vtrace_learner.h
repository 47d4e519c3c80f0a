// The IMPALA learner: takes batches of unrolls from the TrajectoryStore,
// computes V-trace targets and the policy-gradient, baseline and entropy
// losses, steps the optimizer with global grad-norm clipping and a learning
// rate decaying linearly to zero over max_frames, and publishes the weights.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include <torch/optim/optimizer.h>

#include "seedrl/learner/device_optimizer_step.h"
#include "seedrl/learner/learner_config.h"
#include "seedrl/model/agent_net.h"
#include "seedrl/model/policy_distribution.h"
#include "seedrl/publisher/param_publisher.h"
#include "seedrl/trajectory/trajectory_store.h"

namespace seedrl {

struct LearnerStats {
  double total_loss = 0, pg_loss = 0, baseline_loss = 0, entropy = 0;
  double grad_norm = 0, learning_rate = 0, policy_lag = 0;
  double entropy_cost = 0;  // the cost this update used (scheduled_entropy_cost)
  double mean_rho = 0;
  double clip_fraction = 0;
};

// The T transitions of an unroll of L = T+1 entries. Transition t goes from
// entry t to entry t+1 and does not exist when entry t ended an episode (entry
// t+1 is then a reset): valid_t = 0. Its reward is the one stored with entry
// t+1, its discount γ·(1 − terminated_{t+1}), so a truncated episode
// bootstraps from the value of its final observation.
struct Transitions {
  torch::Tensor valid, discounts, rewards;  // [T, B] float
};
Transitions make_transitions(const torch::Tensor& flags, const torch::Tensor& rewards, double discount,
                             double reward_clip, double reward_scale = 1.0);

// (A - mean) / (std + 1e-8), mean and population std over the steps where
// valid is 1 (--normalize-advantages). Each data-parallel replica normalises
// by its own share of the batch, as PPO normalises each minibatch.
torch::Tensor normalized_advantages(const torch::Tensor& advantages, const torch::Tensor& valid);

// The model on a batch's unrolls, each from its stored core state; a model
// that takes the previous action reads it from the recorded rows.
NetOutput vtrace_forward(AgentNet& model, const UnrollBatch& batch, torch::Device device);
// [L, B]: the previous action ActorCriticStep recorded after the behaviour
// policy's parameters in each row (-1 at an episode start), for a model with
// --prev-action-input; the rows are then one wider than the distribution's
// parameters, and the losses read only those.
torch::Tensor recorded_prev_action(const UnrollBatch& batch);

// Losses for one batch; separate from the loop so tests can check them.
// Sums over valid transitions are divided by `normalizer`, or by the batch's
// own valid-transition count when it is 0. A data-parallel replica passes the
// count of the whole batch, so summing the replicas' gradients gives the
// gradient of the single-learner loss on the concatenated batch.
struct VTraceLosses {
  torch::Tensor total, pg, baseline, entropy;  // scalars (entropy: mean entropy, not the cost)
  torch::Tensor mean_rho;
  // With --ppo-clip: the share of valid transitions whose ratio lies past the
  // clip (as PPO's clipfrac); 0 without it.
  torch::Tensor clip_fraction;
};
VTraceLosses vtrace_losses(AgentNet& model, const PolicyDistribution& dist, const UnrollBatch& batch,
                           const VTraceLossConfig& config, torch::Device device, double normalizer = 0);

// The same losses from the model's output on `batch` (the part after the
// forward pass; the learner profile times the two apart). A categorical
// policy on the CPU takes the fused pass (learner/vtrace/
// fused_categorical_losses.h), everything else the tensor ops below.
VTraceLosses vtrace_losses_from_output(const NetOutput& out, const PolicyDistribution& dist, const UnrollBatch& batch,
                                       const VTraceLossConfig& config, torch::Device device, double normalizer = 0);
// The losses as whole-tensor ops, for any distribution and device.
VTraceLosses vtrace_losses_tensor_ops(const NetOutput& out, const PolicyDistribution& dist, const UnrollBatch& batch,
                                      const VTraceLossConfig& config, torch::Device device, double normalizer = 0);

// Valid transitions in a batch (the default normalizer of vtrace_losses).
double valid_transitions(const UnrollBatch& batch);

// The data-parallel all-reduce, wrapped around each backward pass (either
// hook may be empty).
struct GradientReduction {
  std::function<void()> before_backward, after_backward;
};

// Trains on one batch: sets the learning rate, folds the batch into the
// observation moments, records the proximal policy (--ppo-decoupled) and the
// targets (--fixed-targets), then
// `config.epochs` times computes the losses, runs
// backward between the reduction hooks, clips the global grad norm and steps
// the optimizer (`config.minibatches` times per epoch, each on a shuffled
// share of the unrolls, with `normalizer` scaled to that share). Returns the
// last grad norm before clipping (0 with clipping off) as a 0-dim tensor;
// `losses` are the last pass's. With `device_step` (built over `optimizer`)
// the clip and the step run on the device and nothing in the update waits
// for it.
//
// On a CPU learner the frames go to the torso in the form its first layer
// reads (AgentNet::prepare_obs): the whole batch's once for all epochs, or
// each minibatch's as its unrolls are gathered. Neither changes a number.
torch::Tensor vtrace_update(AgentNet& model, const PolicyDistribution& dist, torch::optim::Optimizer& optimizer,
                            const UnrollBatch& batch, const LearnerConfig& config, torch::Device device, double lr,
                            VTraceLosses& losses, double normalizer = 0, const GradientReduction& reduction = {},
                            DeviceOptimizerStep* device_step = nullptr);

// The model's policy parameters on `batch` ([L, B, P] float), without
// gradients: the proximal policy of --ppo-decoupled.
torch::Tensor proximal_policy(AgentNet& model, const UnrollBatch& batch, torch::Device device);

// The V-trace value targets and advantages of `batch` under the model's
// current weights, without gradients (--fixed-targets): fills
// batch.fixed_vs and batch.fixed_advantages (the unclipped advantages with
// --ppo-clip, the rho-weighted ones without) and, with --ppo-decoupled, the
// proximal policy from the same forward pass.
void fix_targets(AgentNet& model, const PolicyDistribution& dist, UnrollBatch& batch, const VTraceLossConfig& config,
                 torch::Device device);

// The unrolls `index` ([n] int64) names, in its order: a minibatch.
UnrollBatch select_unrolls(const UnrollBatch& batch, const torch::Tensor& index);

// One pass of vtrace_update: losses, backward, clip and step, with the
// learning rate already set (LibTorch's optimizer) or prepared (device_step).
torch::Tensor vtrace_pass(AgentNet& model, const PolicyDistribution& dist, torch::optim::Optimizer& optimizer,
                          const UnrollBatch& batch, const LearnerConfig& config, torch::Device device,
                          VTraceLosses& losses, double normalizer, const GradientReduction& reduction,
                          DeviceOptimizerStep* device_step);

// The learning rate after `frames` consumed frames: linear decay to zero.
double decayed_learning_rate(const LearnerConfig& config, std::int64_t frames);

// The entropy cost after `frames` consumed frames: loss.entropy_cost, moved
// linearly to loss.entropy_cost_final over max_frames where that is set.
double scheduled_entropy_cost(const VTraceLossConfig& loss, std::int64_t max_frames, std::int64_t frames);

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const OptimizerConfig& config,
                                                        std::vector<torch::Tensor> params);

class VTraceLearner {
 public:
  VTraceLearner(AgentNet model, const ActionSpec& action, const LearnerConfig& config, TrajectoryStore& store,
                ParamPublisher& publisher, torch::Device device);

  // Runs one update; false once the store is closed.
  bool step(LearnerStats& stats);
  // One update on a given batch (step() without the store).
  void update(const UnrollBatch& batch, LearnerStats& stats);
  // Publishes the current weights (at start and after a resume).
  void publish();

  AgentNet& model() { return model_; }
  torch::optim::Optimizer& optimizer() { return *optimizer_; }
  std::int64_t steps() const { return steps_; }
  std::int64_t frames() const { return frames_; }  // frames consumed by updates
  void set_counters(std::int64_t steps, std::int64_t frames) {
    steps_ = steps;
    frames_ = frames;
  }

 private:
  AgentNet model_;
  std::unique_ptr<PolicyDistribution> dist_;
  LearnerConfig config_;        // its entropy cost the one the next update uses
  VTraceLossConfig base_loss_;  // the loss settings as given (the schedule's start)
  TrajectoryStore& store_;
  ParamPublisher& publisher_;
  torch::Device device_;
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
  UnrollBatch batch_;
  std::int64_t steps_ = 0, frames_ = 0;
};

}  // namespace seedrl
