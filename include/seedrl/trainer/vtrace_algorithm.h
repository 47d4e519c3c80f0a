// V-trace (IMPALA) as a Pipeline algorithm: unrolls of unroll_length + 1
// steps, an actor-critic AgentNet sampled at inference, a data-parallel
// learner over batches of unrolls from the store, and periodic evaluation
// (--eval-every-s) as its own stage.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

#include "seedrl/learner/vtrace_learner.h"
#include "seedrl/trainer/algorithm.h"
#include "seedrl/trainer/latest_stats.h"
#include "seedrl/trainer/train_config.h"

namespace seedrl {

class DataParallelLearner;
class PeriodicEval;
template <class Learner>
class RunCheckpoint;

// V-trace's unroll: unroll_length + 1 entries (the last bootstraps and starts
// the next unroll), the policy distribution's parameters and the LSTM state.
UnrollLayout vtrace_unroll_layout(const TrainConfig& config, const EnvSpec& spec);

// --minibatches against the batch and the learner: the batch split over
// `learners` in-process replicas must split evenly again; learner processes
// do not split. (The CUDA-graphed learner update, one graph per pass over a
// whole shard, is left off: minibatches update eagerly.) Throws a one-line
// error naming the flag.
void validate_minibatches(const TrainConfig& config, int learners);

class VTraceAlgorithm final : public Algorithm {
 public:
  explicit VTraceAlgorithm(const TrainConfig& config);
  ~VTraceAlgorithm() override;

  std::string name() const override { return "v-trace"; }
  UnrollLayout unroll_layout(const EnvSpec& spec) const override;
  int store_batch_size() const override;
  void build(const PipelineContext& ctx) override;
  CheckpointCounters resume(bool resume) override;
  void save(const CheckpointCounters& run) override;
  std::string checkpoint_path() const override;
  void publish() override;
  std::string describe() const override;
  std::unique_ptr<DeviceInference> make_inference(RequestBatcher& batcher, torch::Device device,
                                                  int num_slots) override;
  void release_slot(int slot, TrajectoryStore& store, InferenceFleet& inference) override;
  void start_stages() override;
  void request_stop_stages() override;
  void join_stages() override;
  void attach(RunMonitor& monitor) override;
  void after_run(int status, const std::function<bool()>& stop_requested) override;
  bool learner_step() override;
  std::int64_t learner_steps() const override;
  void add_scalars(Scalars& out) override;

  DataParallelLearner& learner() { return *learner_; }
  // Sum of every step's mean policy lag (the bench's mean over a window).
  double policy_lag_sum() const { return lag_sum_.load(std::memory_order_relaxed); }

 private:
  TrainConfig config_;
  std::optional<EnvSpec> spec_;
  int policy_size_ = 0;
  TrajectoryStore* store_ = nullptr;
  ParamPublisher* publisher_ = nullptr;
  std::unique_ptr<DataParallelLearner> learner_;
  std::unique_ptr<RunCheckpoint<DataParallelLearner>> checkpoint_;
  std::unique_ptr<PeriodicEval> evaluation_;
  LatestStats<LearnerStats> last_;
  LearnerStats step_stats_;  // the learner thread's
  std::atomic<double> lag_sum_{0};
};

}  // namespace seedrl
