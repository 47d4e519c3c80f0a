// Every setting of a training run, as the command line and TOML config files
// give them. Plain data; stored in checkpoints as JSON so eval and resume can
// rebuild the same agent.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "seedrl/actor/actor_pool_config.h"
#include "seedrl/env/registry.h"
#include "seedrl/learner/learner_config.h"
#include "seedrl/learner/r2d2/r2d2_config.h"
#include "seedrl/learner/sac/sac_config.h"
#include "seedrl/model/model_config.h"

namespace seedrl {

inline constexpr int kActorsPerThreadForNice = 64;

struct TrainConfig {
  // environment and actors
  std::string env = "cartpole";
  EnvOptions env_options;
  int actors = 0;  // 0: default_actors()
  int envs_per_actor = 1;
  // See util/actor_thread_priority.h. 0: actors keep the default scheduling;
  // -1: 19 with more than kActorsPerThreadForNice actors per hardware thread, else 0.
  int actor_nice = -1;
  std::uint64_t seed = 1;
  // inference
  int inference_batch = 0;            // 0: half of all environments, at most 1024
  bool inference_batch_auto = false;  // set by resolve_defaults when it chose the batch
  int inference_timeout_us = 2000;
  int inference_threads = 1;
  bool inference_answer_first = true;
  // CUDA graphs (CUDA devices only): off | learner (a single CUDA learner's
  // update, much faster for the small models as one graph launch) | all (also
  // the inference forward, which gained nothing: bench/RESULTS.md).
  std::string cuda_graphs = "learner";
  bool learner_cuda_graphs() const { return cuda_graphs == "learner" || cuda_graphs == "all"; }
  bool inference_cuda_graphs() const { return cuda_graphs == "all"; }
  std::string device = "auto";  // auto | cpu | cuda | cuda:N
  // placement (see trainer/placement.h): all | comma list of cpu, cuda:N
  std::string devices = "all";
  std::string inference_devices, learner_devices;  // empty: default split of `devices`
  std::string learner_cpus = "auto";               // auto | reserve | share (trainer/learner_cpus.h)
  int replica_checksum_every = 100;                // data-parallel learner: updates between replica checks
  // trajectories
  int unroll_length = 20;
  int queue_capacity = 0;  // 0: 2 * batch_size
  // model, learner
  std::string algo = "vtrace";  // vtrace | r2d2 | sac
  ModelConfig model;
  LearnerConfig learner;
  R2D2Config r2d2;  // used with algo == "r2d2"; its replay settings with "sac" too
  SacConfig sac;    // used with algo == "sac"
  // run
  std::string logdir = "runs/latest";
  // The settings the run was given, as a TOML file --config reads back
  // (cli/config_file.h); written to logdir/config.toml at a fresh start.
  std::string settings_toml;
  // What the command line's defaults decided (where --resume took its
  // settings from, the torso --model auto chose), said once the run's checks
  // have passed, so that a refused run stays one line.
  std::vector<std::string> start_notes;
  // --target-return: record when the mean return of the last 100 episodes
  // first reaches it (trainer/target_watch.h); --stop-at-target ends the run there.
  std::optional<double> target_return;
  bool stop_at_target = false;
  double checkpoint_every_s = 600;
  bool checkpoint_replay = true;  // R2D2: save the replay with each checkpoint (trainer/replay_checkpoint.h)
  bool resume = false;
  // A fresh run's network starts from this checkpoint's weights (another
  // run's: fine-tuning, a curriculum); ignored with --resume.
  std::string init_checkpoint;
  double log_interval_s = 5;
  double report_every_s = 60;  // logdir/report.html: seconds between refreshes (0: at the end only)
  double record_every_s = 0;   // logdir/video.gif from the latest checkpoint: seconds between (0: off)
  int torch_threads = 1;
  // V-trace's periodic evaluation (trainer/periodic_eval.h): every this many
  // seconds and at the end, eval_episodes whole episodes with the latest
  // weights on an env of its own; logdir/best.pt keeps the best. 0: off.
  double eval_every_s = 0;
  int eval_episodes = 10;
  bool eval_greedy = false;  // the most likely action instead of a sample
  std::string dashboard;     // HOST:PORT (PORT alone: loopback) serving the report live; empty: off
  // remote actors (seedrl actor --connect): off while remote_actors is empty
  std::string remote_actors;        // HOST:PORT to listen on; PORT alone means loopback
  int max_remote_envs = 256;        // env slots reserved for remote actors
  int max_remote_connections = 64;  // open connections, handshaking ones included
  std::string token_file;           // shared secret; required beyond loopback
  double remote_timeout_s = 30;     // silence that ends a remote actor's connection
  // learner processes (docs/cluster.md): one run over `world_size` `seedrl
  // train` processes, data-parallel over c10d, as torchrun's RANK,
  // WORLD_SIZE, MASTER_ADDR and MASTER_PORT describe it. Rank 0 writes the
  // run's files in logdir; rank r > 0 keeps its own log in logdir/rank-r.
  int rank = 0;
  int world_size = 1;
  std::string master_addr = "127.0.0.1";
  int master_port = 29500;
  double collective_timeout_s = 120;  // a rank silent this long ends the run on every rank
  std::string run_logdir;             // rank 0's logdir (set by finalize_learner_processes)
  bool learner_processes() const { return world_size > 1; }

  int num_envs() const { return actors * envs_per_actor; }
};

// Actor threads that suit this machine: enough envs in flight to fill
// inference batches while others step, without drowning a small CPU.
int default_actors();

// Emulator frames per agent step (frame skip x action repeat) for atari:*
// envs, which papers count as "frames"; 0 for every other env.
int atari_frames_per_step(const TrainConfig& config);

// Fills the "auto" values (actors, inference batch, queue capacity).
void resolve_defaults(TrainConfig& config);

// V-trace: every env keeps one unroll in flight and each update takes
// batch_size of them, so an unroll is about envs / batch_size updates old
// when the learner reaches it. Past kPolicyLagWarning that lag hurts
// learning (see bench/RESULTS.md, "Training"), and train warns.
constexpr int kPolicyLagWarning = 256;
int expected_policy_lag(int envs, int batch_size);

// The actor threads' settings of a run: env, actors, envs per actor, seed and
// the frame budget at which they stop.
ActorPoolConfig actor_pool_config(const TrainConfig& config);

std::string to_json(const TrainConfig& config);
// Throws std::invalid_argument on malformed JSON.
TrainConfig train_config_from_json(const std::string& json);

}  // namespace seedrl
