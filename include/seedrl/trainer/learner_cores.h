// --learner-cores: whether each learner thread gets CPUs of its own, with the
// actor and inference threads kept off them. On a CPU learner with cheap
// envs the learner's update bounds the pipeline, and with thousands of actor
// threads it otherwise waits in the run queue behind them (2 cores, 4096
// CartPole actors: 0.6 s of every 4).
#pragma once

#include <string>
#include <vector>

namespace seedrl {

class Env;
struct Placement;
struct TrainConfig;

// An env step above this is expensive (MuJoCo: 26-210 us; every other
// builtin env is under 0.5 us): the actors, not the learner, bound the run.
inline constexpr double kExpensiveEnvStepNs = 10'000;

struct LearnerCores {
  std::vector<std::vector<int>> learner;  // CPUs of learner thread (rank) r; empty: not reserved
  std::vector<int> others;                // every other thread's CPUs; empty: unchanged
  std::string description;                // for the start-up log
  bool reserved() const { return !learner.empty(); }
  // Learner thread `rank`'s CPUs; empty (anywhere) when none are reserved.
  std::vector<int> of_rank(int rank) const {
    return rank < static_cast<int>(learner.size()) ? learner[rank] : std::vector<int>{};
  }
};

// `mode`: auto | reserve | share. `cpus`: those the process may use.
// Each of `learner_threads` threads gets `torch_threads` CPUs, taken from the
// end of `cpus`. auto reserves when at least half the CPUs stay for the rest
// and an env step takes under kExpensiveEnvStepNs; reserve needs one CPU left
// (else std::invalid_argument naming --learner-cores); share never reserves.
LearnerCores plan_learner_cores(const std::string& mode, const std::vector<int>& cpus, int learner_threads,
                                int torch_threads, double env_step_ns);

// The plan for `config` (its --learner-cores and --torch-threads) and one
// thread per learner device of `placement`, over the calling thread's CPUs.
// auto times a few steps of `env` (at most 20 ms); it shares for R2D2, whose
// learner replay paces, and for GPU learners (whose thread mostly waits on
// the device, and whose batch prefetch thread would share its CPU).
LearnerCores learner_cores_for(const TrainConfig& config, const Placement& placement, Env& env);

}  // namespace seedrl
