// The V-trace learner over one or more devices, data-parallel in one process.
// Each learner device holds a replica (model, optimizer) of a ReplicaSet
// (replica_set.h), driven by its own thread; replica 0 runs on the caller's
// thread. A batch of B unrolls from the
// TrajectoryStore is split into contiguous shards, one per replica; each
// replica's loss divides by the valid-transition count of the WHOLE batch, so
// the all-reduced (summed) gradient equals the single-learner gradient on the
// concatenated batch, and every replica then clips and steps its optimizer on
// identical gradients. Gradients travel through c10d (GradientBuckets over a
// ReplicaGroup: Gloo on CPU, NCCL on CUDA). Every `checksum_every` updates the
// replicas all-gather a parameter checksum; any difference stops the run with
// an error instead of drifting silently. Replica 0 publishes weights to
// inference and is what checkpoints save and load. With one device there is
// no group and no extra thread: this is exactly the single VTraceLearner
// update.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <c10/core/Stream.h>

#include "seedrl/learner/data_parallel_options.h"
#include "seedrl/learner/replica_set.h"
#include "seedrl/learner/vtrace_learner.h"

namespace seedrl {

class BatchPrefetcher;
class CudaGraphs;

class DataParallelLearner {
 public:
  using ModelFactory = std::function<AgentNet()>;
  // Builds one replica per device; replica 0's initial weights are broadcast
  // to the others. Throws std::invalid_argument naming --learner-devices or
  // --batch-size when the batch cannot give every replica an unroll.
  DataParallelLearner(const ModelFactory& make_model, const ActionSpec& action, const LearnerConfig& config,
                      TrajectoryStore& store, ParamPublisher& publisher, std::vector<torch::Device> devices,
                      DataParallelOptions options = {});
  ~DataParallelLearner();  // stops and joins the replica threads
  DataParallelLearner(const DataParallelLearner&) = delete;
  DataParallelLearner& operator=(const DataParallelLearner&) = delete;

  // Runs one update on the next batch; false once the store is closed.
  // Throws std::runtime_error when the replicas diverged. With prefetching
  // (options.prefetch) the first call starts a BatchPrefetcher, which gathers
  // each next batch while the update on the current one runs.
  bool step(LearnerStats& stats);
  // Time step() spent waiting for a batch (the learner starved of data).
  std::uint64_t batch_wait_ns() const;
  // One update on a given batch of any size >= replicas() (step() without the store).
  void update(const UnrollBatch& batch, LearnerStats& stats);
  // The same over several learner processes (options.rendezvous): `all_valid`
  // and `all_frames` are the valid transitions and frames of every process's
  // batch of this update, which normalise the loss and advance frames().
  void update(const UnrollBatch& batch, LearnerStats& stats, double all_valid, std::int64_t all_frames);
  // Publishes replica 0's weights.
  void publish();
  // After a checkpoint was loaded into replica 0: copies its weights and
  // optimizer state to every other replica.
  void sync_replicas();
  // Compares the replicas' parameter checksums now (a collective; call
  // between updates). Throws std::runtime_error naming the replica that differs.
  void verify_replicas();

  AgentNet& model();                     // replica 0
  torch::optim::Optimizer& optimizer();  // replica 0
  AgentNet& replica_model(int rank);
  // Whether the last update was a replay of its CUDA graph (--cuda-graphs).
  bool update_replayed() const;
  int replicas() const { return replicas_->size(); }
  std::int64_t steps() const { return steps_; }
  std::int64_t frames() const { return frames_; }
  void set_counters(std::int64_t steps, std::int64_t frames) {
    steps_ = steps;
    frames_ = frames;
  }

 private:
  // Learner processes: what they agree on before an update.
  struct Agreed {
    bool stop = false;  // some process stops: all stop here
    int stoppers = 0;
    double valid = 0;
    std::int64_t frames = 0;
  };
  Agreed agree(bool have_batch);
  std::string weights_checksum();  // replica 0's, for the log
  void replica_update(int rank);
  torch::Tensor graphed_update(int rank, const UnrollBatch& shard);

  LearnerConfig config_;        // its entropy cost the one the next update uses
  VTraceLossConfig base_loss_;  // the loss settings as given (the schedule's start)
  TrajectoryStore& store_;
  ParamPublisher& publisher_;
  DataParallelOptions options_;
  std::unique_ptr<ReplicaSet<AgentNet>> replicas_;
  // Per rank: the policy distribution and the last update's results.
  std::vector<std::unique_ptr<PolicyDistribution>> dists_;
  std::vector<VTraceLosses> losses_;
  std::vector<torch::Tensor> grad_norms_;
  // --cuda-graphs (one CUDA replica): its update replayed as a CUDA graph, on
  // a stream of its own (CUDA cannot capture the default stream).
  std::unique_ptr<CudaGraphs> graphs_;
  std::optional<c10::Stream> stream_;
  UnrollBatch batch_;
  std::int64_t steps_ = 0, frames_ = 0;
  // Learner processes: time in agree() and in updates, over `updated_` updates.
  std::uint64_t agree_ns_ = 0, update_ns_ = 0, updated_ = 0;
  bool prefetch_ = false;

  // The update every replica runs; written before replicas_->run_update, read inside it.
  struct Job {
    std::vector<UnrollBatch> shards;
    double lr = 0, normalizer = 0;
  } job_;
  std::unique_ptr<BatchPrefetcher> prefetcher_;  // last: stopped first
};

}  // namespace seedrl
