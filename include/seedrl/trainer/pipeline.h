// Every stage of a training run, wired once: the trajectory store, the
// parameter publisher, the inference fleet (one server per device), the
// local actor pool (and acting-only evaluation actors), the optional remote
// actor server, the learner thread, and the algorithm's own stages. The
// algorithm (trainer/algorithm.h) supplies only its hooks; `train` for every
// algorithm and the bench's end-to-end stage build the same Pipeline.
//
// Constructing builds everything and starts no thread (a remote server
// already listens, so a bad address fails before anything runs); start()
// starts the threads consumers first; stop() stops them producers first,
// closes the queues (waking whoever waits on them) and joins every thread,
// exactly once, also when an exception unwinds the pipeline.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "seedrl/actor/episode_stats.h"
#include "seedrl/env/spec.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/io/metrics_writer.h"
#include "seedrl/trainer/algorithm.h"
#include "seedrl/trainer/learner_cpus.h"
#include "seedrl/trainer/learner_thread.h"
#include "seedrl/trainer/placement.h"
#include "seedrl/trainer/run_tally.h"
#include "seedrl/trainer/train_config.h"
#include "seedrl/util/cpu_affinity.h"

namespace seedrl {

class ActorPool;
class InferenceFleet;
class ParamPublisher;
class TrajectoryStore;
namespace net {
class RemoteActorServer;
}

class Pipeline {
 public:
  // Throws std::invalid_argument naming the flag for a setting it refuses.
  // `config` and `algorithm` must outlive the pipeline.
  Pipeline(const TrainConfig& config, Algorithm& algorithm);
  ~Pipeline();
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  // A resumed run's counters: frames and episodes go on from them.
  void set_counters(const CheckpointCounters& counters);
  // `save`: what the learner thread calls between steps when a checkpoint is due.
  void start(std::function<void()> save = [] {});
  // Idempotent; never throws (an error is logged).
  void stop() noexcept;
  // The run ended as planned before --max-frames (--stop-at-target): stop()
  // tells remote actors it finished, as at --max-frames.
  void mark_finished() { finished_ = true; }

  // A stage stopped on an error: the learner thread, one of the algorithm's
  // stages, an actor (local or evaluation) or an inference thread.
  bool failed() const;
  // The pipeline's part of a metrics line, then the algorithm's.
  void add_scalars(Scalars& out);

  const EnvSpec& spec() const { return spec_; }
  const Placement& placement() const { return placement_; }
  const LearnerCpus& cpus() const { return cpus_; }
  std::atomic<std::int64_t>& frames() { return frames_; }
  EpisodeStats& episodes() { return episodes_; }
  const EpisodeStats& eval_episodes() const { return eval_episodes_; }
  TrajectoryStore& store() { return *store_; }
  InferenceFleet& inference() { return *inference_; }
  ActorPool& actors() { return *actors_; }
  net::RemoteActorServer* remote() { return remote_.get(); }
  LearnerThread& learner_thread() { return *learner_thread_; }
  int train_envs() const { return train_envs_; }

 private:
  const TrainConfig& config_;
  Algorithm& algorithm_;
  Placement placement_;
  EnvSpec spec_;
  LearnerCpus cpus_;
  // Threads inherit the CPUs of their creator: every one the pipeline starts
  // keeps off the learner's reserved CPUs (learner threads place themselves).
  std::unique_ptr<ScopedThreadCpus> other_threads_;
  int train_envs_ = 0, remote_envs_ = 0;
  std::atomic<std::int64_t> frames_{0}, eval_frames_{0};
  EpisodeStats episodes_, eval_episodes_;
  PipelineTally tally_{frames_, episodes_};  // learner processes: the whole run's counts
  std::unique_ptr<TrajectoryStore> store_;
  std::unique_ptr<ParamPublisher> publisher_;
  std::unique_ptr<InferenceFleet> inference_;
  std::unique_ptr<ActorPool> actors_, eval_actors_;
  std::unique_ptr<net::RemoteActorServer> remote_;
  std::unique_ptr<LearnerThread> learner_thread_;
  std::function<void()> save_;
  bool stopped_ = false;
  bool finished_ = false;
};

}  // namespace seedrl
