// What a learning algorithm plugs into the Pipeline (trainer/pipeline.h).
// The pipeline owns and orders every stage (env -> actor -> inference ->
// trajectory store -> learner -> weights -> inference); an algorithm supplies
// only these named hooks:
//   shape        the unroll the store assembles, how many the learner side
//                takes at once, and acting-only evaluation envs;
//   build        its learner (and any stage of its own) over the pipeline's
//                store and publisher, and its checkpoint;
//   inference    the per-device inference step (model, inputs, action choice,
//                what is recorded);
//   slot release what a remote actor's departure resets;
//   stages       threads of its own between the store and the learner (R2D2's
//                replay inserter, V-trace's periodic evaluation), started
//                after the pipeline's and stopped before them;
//   learner step one update on the pipeline's learner thread;
//   scalars      what the metrics line reports about it.
// A new algorithm is a new implementation of this class, not a new wiring.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <torch/types.h>

#include "seedrl/env/spec.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/io/metrics_writer.h"
#include "seedrl/trajectory/trajectory_store.h"

namespace seedrl {

class DeviceInference;
class EpisodeStats;
class InferenceFleet;
class ParamPublisher;
class RequestBatcher;
class RunMonitor;
class RunTally;
struct LearnerCpus;
struct Placement;
struct TrainConfig;

// What the pipeline has built when it asks the algorithm to build its part.
struct PipelineContext {
  const TrainConfig& config;
  const EnvSpec& spec;
  const Placement& placement;
  const LearnerCpus& cpus;
  TrajectoryStore& store;
  ParamPublisher& publisher;
  const std::atomic<std::int64_t>& frames;  // env steps of training envs, the run's clock
  int train_envs = 0;                       // local + remote slots; evaluation slots follow
  int remote_envs = 0;
  RunTally* tally = nullptr;  // learner processes: keeps `frames` and the episodes the whole run's
};

class Algorithm {
 public:
  virtual ~Algorithm() = default;
  virtual std::string name() const = 0;

  // --- shape ---
  virtual UnrollLayout unroll_layout(const EnvSpec& spec) const = 0;
  // Unrolls the store hands out at once (a learner batch, or 1 to an inserter).
  virtual int store_batch_size() const = 0;
  // Acting-only envs after the training slots: stepped, never recorded or counted.
  virtual int eval_envs() const { return 0; }

  // --- build --- (once, before the inference servers; may throw, naming the flag)
  virtual void build(const PipelineContext& ctx) = 0;
  // With `resume`, loads the run's checkpoint into the learner; its counters.
  virtual CheckpointCounters resume(bool resume) = 0;
  // Saves the checkpoint with the run's progress (frames, episodes, wall
  // time, recent episodes); the algorithm adds its learner's counters.
  virtual void save(const CheckpointCounters& run) = 0;
  virtual std::string checkpoint_path() const = 0;
  // The learner's weights to the publisher (before inference starts).
  virtual void publish() = 0;
  // One line about the algorithm's settings for the log.
  virtual std::string describe() const = 0;

  // --- inference --- one server per inference device.
  virtual std::unique_ptr<DeviceInference> make_inference(RequestBatcher& batcher, torch::Device device,
                                                          int num_slots) = 0;

  // --- slot release --- a remote actor left `slot`: what its next user must not inherit.
  virtual void release_slot(int slot, TrajectoryStore& store, InferenceFleet& inference) = 0;

  // --- stages ---
  virtual void start_stages() {}
  virtual void request_stop_stages() {}  // also wakes anything they wait on
  virtual void join_stages() {}
  virtual bool stages_failed() const { return false; }
  // Rows or summary entries its stages add to the run's metrics.
  virtual void attach(RunMonitor&) {}
  // After the run's last checkpoint (status 0: it ended normally), before the summary.
  virtual void after_run(int /*status*/, const std::function<bool()>& /*stop_requested*/) {}

  // --- learner step --- on the learner thread; false once its input closed.
  virtual bool learner_step() = 0;
  virtual std::int64_t learner_steps() const = 0;

  // --- scalars --- the algorithm's part of a metrics line.
  virtual void add_scalars(Scalars& out) = 0;
};

}  // namespace seedrl
