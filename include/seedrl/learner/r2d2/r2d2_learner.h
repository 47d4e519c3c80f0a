// The R2D2 learner: samples sequences from the prioritised replay, replays
// the stored recurrent state through a burn-in prefix without gradients, then
// trains on the rest with n-step double Q-learning targets under value
// rescaling, weighted by importance weights; writes back priorities
// eta max|delta| + (1 - eta) mean|delta| per sequence, copies the online
// network into the target network every target_update_period steps and
// publishes the weights to inference.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>
#include <torch/types.h>

#include "seedrl/inference/param_publisher.h"
#include "seedrl/learner/learner_config.h"
#include "seedrl/learner/r2d2/r2d2_config.h"
#include "seedrl/learner/r2d2/replay.h"
#include "seedrl/model/q_net.h"

namespace seedrl::r2d2 {

// Value rescaling on tensors (the same h and h^-1 as value_rescaling.h).
torch::Tensor rescale(const torch::Tensor& x);
torch::Tensor inverse_rescale(const torch::Tensor& x);

// n-step double Q-learning targets over a window of L entries (T = L - 1
// transitions), time-major. Transition t starts at entry t and exists when
// entry t did not end an episode (valid_t). It sums rewards r_{t+1..t+m}
// (the reward stored with entry j led to it) for m = n steps, or fewer when an
// entry on the way is an episode's last or the window ends, and then:
//   terminated entry: no bootstrap;
//   truncated entry, n-th step or window end at entry j: + gamma^m h^-1(q_target[j, argmax q_online[j]]).
// The target is h(sum + bootstrap) with rescaling on, else the plain sum.
struct NStepTargets {
  torch::Tensor targets;  // [T, B]
  torch::Tensor valid;    // [T, B] float
};
NStepTargets n_step_double_q_targets(const torch::Tensor& rewards, const torch::Tensor& flags,
                                     const torch::Tensor& q_online, const torch::Tensor& q_target, double discount,
                                     int n, bool value_rescaling = true);

// Per sequence: eta max_t |delta| + (1 - eta) mean_t |delta| over valid
// transitions (0 for a sequence without any). td_abs, valid: [T, B].
std::vector<double> sequence_priorities(const torch::Tensor& td_abs, const torch::Tensor& valid, double eta);

// A new sequence's priority from the Q-values recorded while acting
// (policy[..., 1:]; one sequence, B = 1): the n-step targets over the entries
// after burn-in with those Q-values as both online and target values, the TD
// errors against the Q of the action taken, mixed by sequence_priorities.
// Rewards are clipped and scaled as the learner does (`loss`; its discount).
// Floored at 1e-6 so that every sequence stays reachable.
double acting_priority(const UnrollBatch& sequence, int burn_in, const VTraceLossConfig& loss, int n, double eta);

struct R2D2Stats {
  double loss = 0, td_error = 0, q_mean = 0, grad_norm = 0, learning_rate = 0, policy_lag = 0;
  double sample_priority_mean = 0;  // new priorities of the last batch
  double importance_weight_mean = 0;
};

class R2D2Learner {
 public:
  R2D2Learner(QNet online, QNet target, const R2D2Config& r2d2, const LearnerConfig& config, Replay& replay,
              ParamPublisher& publisher, torch::Device device);

  // One update; false once the replay is closed.
  bool step(R2D2Stats& stats);
  void publish();
  void sync_target();

  QNet& model() { return online_; }
  QNet& target() { return target_; }
  torch::optim::Optimizer& optimizer() { return *optimizer_; }
  std::int64_t steps() const { return steps_; }
  std::int64_t frames() const { return frames_; }
  void set_counters(std::int64_t steps, std::int64_t frames) { steps_ = steps; frames_ = frames; }

 private:
  QNet online_, target_;
  R2D2Config r2d2_;
  LearnerConfig config_;
  Replay& replay_;
  ParamPublisher& publisher_;
  torch::Device device_;
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
  ReplaySample sample_;
  std::int64_t steps_ = 0, frames_ = 0;
};

}  // namespace seedrl::r2d2
