// `seedrl bench`: throughput of each pipeline stage alone and of the whole
// pipeline, for one run configuration. Each stage runs on the real classes
// (ActorPool's envs, RequestBatcher + InferenceServer, TrajectoryStore +
// VTraceLearner) with the other stages replaced by synthetic producers or
// consumers, so the slowest stage bounds what end-to-end training can reach.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "seedrl/trainer/train_config.h"

namespace seedrl::bench {

struct BenchTiming {
  double warmup_s = 1.0;  // run, then discard, before measuring
  double seconds = 5.0;   // measured time per stage
};

// Env stage: `actors` threads step their `envs_per_actor` envs with uniform
// random actions; no inference. Frames are env steps (resets not counted).
// For atari:* envs the same threads then run a bare loop of ALE act() calls
// (frame_skip per step, random actions, reset at game over, no
// preprocessing) on the same emulators: emulator frames per CPU-second
// of both, and the env's overhead over the bare emulator.
struct EnvStageResult {
  double frames_per_s = 0;
  double cpu_us_per_frame = 0;               // CPU-microseconds per frame, all threads
  int frame_skip = 0;                        // atari:* only (0 otherwise), and then:
  double emulator_frames_per_cpu_s = 0;      // the env: frame_skip * steps per CPU second
  double raw_emulator_frames_per_cpu_s = 0;  // the bare act() loop
  double overhead() const {
    return emulator_frames_per_cpu_s > 0 ? raw_emulator_frames_per_cpu_s / emulator_frames_per_cpu_s - 1 : 0;
  }
  // football:* only (0 otherwise): steps per CPU-second of the env and of
  // the bare engine loop, and the memory each env holds (resident MB).
  double football_steps_per_cpu_s = 0;
  double raw_football_steps_per_cpu_s = 0;
  double mb_per_env = 0;
  double football_overhead() const {
    return football_steps_per_cpu_s > 0 ? raw_football_steps_per_cpu_s / football_steps_per_cpu_s - 1 : 0;
  }
};
EnvStageResult bench_env_stage(const TrainConfig& config, const BenchTiming& timing);

// Inference stage: `actors` threads that step no envs submit `envs_per_actor`
// fixed observations each through RequestBatcher + InferenceServer (nothing
// is recorded). Latency is one submit's round trip as its actor sees it.
struct InferenceStageResult {
  double requests_per_s = 0;
  double latency_p50_us = 0, latency_p90_us = 0, latency_p99_us = 0;
  double batch_mean = 0;        // rows per batch
  double forward_ms_mean = 0;   // per batch
  double cpu_us_per_frame = 0;  // per request (one env step's action)
};
InferenceStageResult bench_inference_stage(const TrainConfig& config, const BenchTiming& timing);

// Learner stage: a feeder thread appends synthetic steps to a TrajectoryStore
// so the learner always finds a batch; frames are T * batch per update. With
// config.algo "r2d2" it is R2D2's learner sampling a replay filled with
// synthetic sequences beforehand (frames: unroll_length * batch per update,
// burn-in excluded). The learner is the data-parallel one on the placement's
// learner devices; with
// N > 1 of them the stage runs once on the first 1, 2, ..., N devices, and
// efficiency(n) = frames/s(n) / (n x frames/s(1)).
struct LearnerScalingPoint {
  int replicas = 0;
  double frames_per_s = 0, steps_per_s = 0, efficiency = 0;
};
struct LearnerStageResult {
  double frames_per_s = 0;  // on every learner device
  double steps_per_s = 0;
  double step_ms_mean = 0;
  double cpu_us_per_frame = 0;               // learner and feeder threads
  double graph_fraction = 0;                 // updates replayed as a CUDA graph (--cuda-graphs, V-trace)
  std::vector<LearnerScalingPoint> scaling;  // empty with one learner device
};
LearnerStageResult bench_learner_stage(const TrainConfig& config, const BenchTiming& timing);

// One V-trace update taken apart (`seedrl bench --profile-learner N`): the
// mean wall time of each phase over N updates with the device synchronised
// around it, and of the whole update queued as the learner queues it.
struct LearnerProfile {
  std::string device;
  int updates = 0;
  std::int64_t parameters = 0;
  double frames_per_update = 0;
  std::vector<std::string> phases;
  std::vector<double> phase_ms;  // per update, one per phase
  double unsynchronised_ms = 0;  // per update
};
LearnerProfile profile_learner_update(const TrainConfig& config, int updates);
std::string format_learner_profile(const TrainConfig& config, const LearnerProfile& profile);

// The whole pipeline, wired as train() wires it (no logging or checkpoints),
// with where the time went over the measured window.
struct EndToEndResult {
  double frames_per_s = 0;
  double learner_frames_per_s = 0;  // frames consumed by updates
  // Actor threads: share of their time stepping envs vs waiting for actions.
  double actor_step_fraction = 0, actor_wait_fraction = 0;
  // Per inference batch: first row to taken (fill), forward, recording.
  double batch_fill_ms_mean = 0, forward_ms_mean = 0, record_ms_mean = 0;
  double batch_mean = 0;
  double inference_timeout_fraction = 0;  // batches run partial on timeout
  double inference_graph_fraction = 0;    // batches whose forward was a CUDA graph replay (--cuda-graphs)
  // Share of inference-thread time waiting for a batch / blocked on a full unroll queue.
  double inference_idle_fraction = 0, inference_push_wait_fraction = 0;
  // Learner: mean update time (including waiting for unrolls) and the share waiting.
  double learner_step_ms_mean = 0, learner_wait_fraction = 0;
  double policy_lag_mean = 0;  // learner updates between acting and learning
  std::int64_t learner_steps = 0;
  double cpu_us_per_frame = 0;  // every thread of the pipeline
};
// With `remote`, the actors are remote actors (`seedrl actor` threads in this
// process) connected to a remote-actor server over loopback.
EndToEndResult bench_end_to_end(const TrainConfig& config, const BenchTiming& timing, bool remote = false);

}  // namespace seedrl::bench
