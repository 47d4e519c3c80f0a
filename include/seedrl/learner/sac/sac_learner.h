// The SAC learner: samples transitions from the replay (uniform; each
// replayed sequence is one transition's n_step + 1 entries), runs one
// SacUpdater update on them and publishes the actor to inference.
//
// The sampling noise of update k comes from a generator seeded by (seed, k),
// not from a stream carried across updates, so that a run resumed from a
// checkpoint at step k draws what the uninterrupted run would have drawn.
//
// step() leaves each update's actor step (sac_update.h) to the next step,
// which runs it, and publishes the actor, on the second critic thread while
// it samples its batch: the replay's draws and the updates keep their order,
// so the run is the one whole updates make. finish() runs a step left over;
// a checkpoint is taken after it.
// One learner device: SAC's small networks gain nothing from data parallelism.
#pragma once

#include <cstdint>
#include <vector>

#include <torch/optim/adam.h>

#include "seedrl/env/spec.h"
#include "seedrl/learner/learner_config.h"
#include "seedrl/learner/r2d2/replay.h"
#include "seedrl/learner/sac/sac_config.h"
#include "seedrl/learner/sac/sac_update.h"
#include "seedrl/model/model_config.h"
#include "seedrl/model/sac_net.h"
#include "seedrl/publisher/param_publisher.h"

namespace seedrl::sac {

struct SacLearnerStats {
  SacStats update;
  double transitions = 0;  // in the last batch (sequences whose entry 0 ended an episode give none)
  double policy_lag = 0;   // learner steps between acting and learning, mean over the batch
};

class SacLearner {
 public:
  // Throws std::invalid_argument naming the flag for a discrete action space,
  // an image observation or a bad temperature.
  SacLearner(const EnvSpec& spec, const ModelConfig& model, const SacConfig& sac, const LearnerConfig& config,
             int n_step, r2d2::Replay& replay, ParamPublisher& publisher, torch::Device device, std::uint64_t seed);

  // Samples, updates, publishes; false once the replay is closed.
  bool step(SacLearnerStats& stats);
  // One whole update on a given sample (no replay involved), published.
  void update(const r2d2::ReplaySample& sample, SacLearnerStats& stats);
  // The actor's step the last step() left, if any, and its publishing.
  void finish();
  void publish();

  // What RunCheckpoint saves: the whole network (actor, critics, targets,
  // log alpha) and the one Adam of its three parameter groups.
  SacNet& model() { return net_; }
  torch::optim::Optimizer& optimizer() { return updater_.optimizer(); }
  void sync_replicas() {}  // one replica
  std::int64_t steps() const { return steps_; }
  std::int64_t frames() const { return frames_; }
  void set_counters(std::int64_t steps, std::int64_t frames) {
    steps_ = steps;
    frames_ = frames;
  }

 private:
  SacNet net_;
  SacUpdater updater_;
  LearnerConfig config_;
  int n_step_;
  r2d2::Replay& replay_;
  ParamPublisher& publisher_;
  torch::Device device_;
  std::uint64_t seed_;
  std::vector<float> low_, high_;
  // The batch's transitions (on the learner's device); the update's stats.
  TransitionBatch transitions(const r2d2::ReplaySample& sample) const;
  at::Generator noise_generator() const;  // update steps_ + 1's noise: seeded by (seed, step)
  void record(const r2d2::ReplaySample& sample, std::int64_t transitions, SacLearnerStats& stats);

  r2d2::ReplaySample sample_;
  std::int64_t steps_ = 0, frames_ = 0;
};

}  // namespace seedrl::sac
