// The R2D2 learner: samples sequences from the prioritised replay, replays
// the stored recurrent state through a burn-in prefix without gradients, then
// trains on the rest with n-step double Q-learning targets under value
// rescaling, weighted by importance weights; writes back priorities
// eta max|delta| + (1 - eta) mean|delta| per sequence, copies the online
// network into the target network every target_update_period steps and
// publishes the weights to inference.
//
// With several learner devices it is data-parallel like V-trace's learner
// (data_parallel.h), on the same ReplicaSet (replica_set.h): each device
// holds an online and a target replica and trains on a contiguous shard of
// every sampled batch; gradients are summed through c10d (Gloo on CPU, NCCL
// on CUDA) with each shard's loss divided by the WHOLE batch's sequence
// count, so every replica steps on the single-learner gradient. The
// replicas' priorities are put back together in batch order and written to
// the one replay.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>
#include <torch/types.h>

#include "seedrl/learner/data_parallel_options.h"
#include "seedrl/learner/learner_config.h"
#include "seedrl/learner/r2d2/r2d2_config.h"
#include "seedrl/learner/r2d2/replay.h"
#include "seedrl/learner/replica_set.h"
#include "seedrl/model/q_net.h"
#include "seedrl/publisher/param_publisher.h"

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
// The same as a float64 [B] tensor on td_abs's device.
torch::Tensor sequence_priority_tensor(const torch::Tensor& td_abs, const torch::Tensor& valid, double eta);

// A new sequence's priority from the Q-values recorded while acting
// (policy[..., 1:]; one sequence, B = 1): the n-step targets over the entries
// after burn-in with those Q-values as both online and target values, the TD
// errors against the Q of the action taken, mixed by sequence_priorities.
// Rewards are clipped and scaled as the learner does (`loss`; its discount).
// Floored at 1e-6 so that every sequence stays reachable.
double acting_priority(const UnrollBatch& sequence, int burn_in, const VTraceLossConfig& loss, int n, double eta);

// The loss of one batch (or one replica's shard of it) and its TD errors.
// Burn-in replays the stored state through the prefix without gradients.
// The loss sums importance-weighted per-sequence losses and divides by
// `normalizer` (the whole batch's sequence count), so the shards' losses and
// gradients add up to the batch's mean.
struct R2D2Losses {
  torch::Tensor loss;    // scalar
  torch::Tensor td_abs;  // [T, B] |delta|, detached
  torch::Tensor valid;   // [T, B] float
  torch::Tensor q_sa;    // [T, B] Q of the action taken, detached
};
R2D2Losses r2d2_losses(QNet& online, QNet& target, const UnrollBatch& batch, const torch::Tensor& weights,
                       const R2D2Config& r2d2, const VTraceLossConfig& loss, torch::Device device,
                       std::int64_t normalizer);

struct R2D2Stats {
  double loss = 0, td_error = 0, q_mean = 0, grad_norm = 0, learning_rate = 0, policy_lag = 0;
  double sample_priority_mean = 0;  // new priorities of the last batch
  double importance_weight_mean = 0;
};

class R2D2Learner {
 public:
  using ModelFactory = std::function<QNet()>;
  // One online and one target network per device, all starting from the
  // first online network's weights. Throws std::invalid_argument naming
  // --batch-size when a batch cannot give every device a sequence.
  R2D2Learner(const ModelFactory& make_model, const R2D2Config& r2d2, const LearnerConfig& config, Replay& replay,
              ParamPublisher& publisher, std::vector<torch::Device> devices, DataParallelOptions options = {});
  ~R2D2Learner();
  R2D2Learner(const R2D2Learner&) = delete;
  R2D2Learner& operator=(const R2D2Learner&) = delete;

  // Samples, updates and writes the new priorities back; false once the
  // replay is closed. Throws std::runtime_error when the replicas diverged.
  bool step(R2D2Stats& stats);
  // One update on a given sample (any batch size >= replicas()); returns the
  // sequences' new priorities in batch order without touching the replay.
  std::vector<double> update(const ReplaySample& sample, R2D2Stats& stats);
  void publish();
  // After a checkpoint was loaded into replica 0: copies its online and
  // target weights and its optimizer state to every other replica.
  void sync_replicas();
  // Compares the replicas' parameter checksums now (a collective).
  void verify_replicas();

  QNet& model();   // replica 0's online network
  QNet& target();  // replica 0's target network
  QNet& replica_model(int rank);
  QNet& replica_target(int rank);
  torch::optim::Optimizer& optimizer();
  int replicas() const { return replicas_->size(); }
  std::int64_t steps() const { return steps_; }
  std::int64_t frames() const { return frames_; }
  void set_counters(std::int64_t steps, std::int64_t frames) {
    steps_ = steps;
    frames_ = frames;
  }

 private:
  void replica_update(int rank);

  R2D2Config r2d2_;
  LearnerConfig config_;
  Replay& replay_;
  ParamPublisher& publisher_;
  DataParallelOptions options_;
  // Per device: net 0 the online network (trained), net 1 the target.
  std::unique_ptr<ReplicaSet<QNet>> replicas_;
  // The last update's results on each replica's shard.
  struct Result {
    std::vector<double> priorities;
    double loss = 0, td_sum = 0, q_sum = 0, valid = 0, grad_norm = 0;
  };
  std::vector<Result> results_;
  ReplaySample sample_;
  std::int64_t steps_ = 0, frames_ = 0;
  // The update every replica runs; written before replicas_->run_update, read inside it.
  struct Job {
    const ReplaySample* sample = nullptr;
    std::int64_t step = 0;
  } job_;
};

}  // namespace seedrl::r2d2
