// Soft actor-critic as a Pipeline algorithm: the actor network acting from
// central inference (learner/sac's squashed Gaussian, uniform for the first
// --random-steps), one transition of n_step + 1 entries per stored sequence,
// R2D2's replay inserter and replay (uniform, rate-limited by --replay-ratio,
// saved with the checkpoint), and the SAC learner on one device.
#pragma once

#include <atomic>
#include <memory>
#include <optional>

#include "seedrl/learner/sac/sac_learner.h"
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

class SacAlgorithm final : public Algorithm {
 public:
  // Throws std::invalid_argument naming the flag for settings SAC refuses.
  explicit SacAlgorithm(const TrainConfig& config);
  ~SacAlgorithm() override;

  std::string name() const override { return "sac"; }
  UnrollLayout unroll_layout(const EnvSpec& spec) const override;
  int store_batch_size() const override { return 1; }
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

  sac::SacLearner& learner() { return *learner_; }
  r2d2::Replay& replay() { return *replay_; }

 private:
  TrainConfig config_;
  std::optional<EnvSpec> spec_;
  TrajectoryStore* store_ = nullptr;
  ParamPublisher* publisher_ = nullptr;
  const std::atomic<std::int64_t>* frames_ = nullptr;
  int servers_made_ = 0;
  std::unique_ptr<r2d2::Replay> replay_;
  std::unique_ptr<sac::SacLearner> learner_;
  std::unique_ptr<RunCheckpoint<sac::SacLearner>> checkpoint_;
  std::unique_ptr<ReplayCheckpoint> replay_checkpoint_;
  std::unique_ptr<r2d2::ReplayInserter> inserter_;
  LatestStats<sac::SacLearnerStats> last_;
  sac::SacLearnerStats step_stats_;
  std::unique_ptr<ReplayScalars> replay_scalars_;
};

}  // namespace seedrl
