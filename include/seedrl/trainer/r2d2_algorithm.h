// R2D2 as a Pipeline algorithm: overlapping sequences with a burn-in, a
// recurrent Q-network acting epsilon-greedily (a fixed epsilon per env, plus
// acting-only evaluation envs), a replay inserter stage feeding prioritised
// sequence replay, and a data-parallel learner with a target network.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

#include "seedrl/learner/r2d2/r2d2_learner.h"
#include "seedrl/trainer/algorithm.h"
#include "seedrl/trainer/latest_stats.h"
#include "seedrl/trainer/train_config.h"

namespace seedrl {

class ReplayCheckpoint;
class ReplayScalars;
template <class Learner>
class RunCheckpoint;
namespace r2d2 {
class Replay;
class ReplayInserter;
}  // namespace r2d2

class R2D2Algorithm final : public Algorithm {
 public:
  // Throws std::invalid_argument naming the flag for settings R2D2 refuses.
  explicit R2D2Algorithm(const TrainConfig& config);
  ~R2D2Algorithm() override;

  std::string name() const override { return "r2d2"; }
  UnrollLayout unroll_layout(const EnvSpec& spec) const override;
  int store_batch_size() const override { return 1; }
  int eval_envs() const override { return config_.r2d2.eval_envs; }
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
  bool stages_failed() const override;
  bool learner_step() override;
  std::int64_t learner_steps() const override;
  void add_scalars(Scalars& out) override;

  r2d2::R2D2Learner& learner() { return *learner_; }
  r2d2::Replay& replay() { return *replay_; }

 private:
  TrainConfig config_;
  std::optional<EnvSpec> spec_;
  TrajectoryStore* store_ = nullptr;
  ParamPublisher* publisher_ = nullptr;
  const std::atomic<std::int64_t>* frames_ = nullptr;
  int train_envs_ = 0, remote_envs_ = 0;
  int servers_made_ = 0;
  std::unique_ptr<r2d2::Replay> replay_;
  std::unique_ptr<r2d2::R2D2Learner> learner_;
  std::unique_ptr<RunCheckpoint<r2d2::R2D2Learner>> checkpoint_;
  std::unique_ptr<ReplayCheckpoint> replay_checkpoint_;
  std::unique_ptr<r2d2::ReplayInserter> inserter_;
  LatestStats<r2d2::R2D2Stats> last_;
  r2d2::R2D2Stats step_stats_;
  std::unique_ptr<ReplayScalars> replay_scalars_;
};

}  // namespace seedrl
