// --learner-cpus: whether each learner thread gets CPUs of its own, with the
// actor and inference threads kept off them. On a CPU learner with cheap
// envs the learner's update bounds the pipeline, and with thousands of actor
// threads it otherwise spends much of its time waiting in the run queue
// behind them (see bench/RESULTS.md, "The pipeline").
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace seedrl {

class Env;
struct Placement;
struct TrainConfig;

// An env step above this is expensive (Atari's, Football's and MuJoCo's
// are; MinAtar's and classic control's are orders of magnitude below it):
// the actors bound the run unless the learner's passes weigh as much.
inline constexpr double kExpensiveEnvStepNs = 10'000;

// With expensive env steps, auto reserves when the learner's estimated CPU
// time per agent step per learner CPU is at least this multiple of the
// actors' per remaining CPU. Sharing spreads the work over every CPU, but the
// scheduler gives one learner thread only its share among the many actor
// threads, so reserving pays once the learner's work fills its CPUs. The
// estimate leaves out the actor threads' own costs (batching, recording), so
// it reads the learner a little heavier than the run does; 1 sits between
// Pong-fast's estimate (four passes, measured faster reserved) and
// Breakout-fast's (two passes, measured faster sharing) on two CPUs, with a
// margin on each side (bench/RESULTS.md, "learner-cpus auto").
inline constexpr double kReserveBalance = 1.0;

// What one agent step costs, in CPU ns: the env's step, the inference's
// forward pass for it, and the learner's passes over it.
struct StepCost {
  double env_ns = 0;
  double inference_ns = 0;
  double learner_ns = 0;  // 0: not measured (auto then shares for expensive envs)
  double actors_ns() const { return env_ns + inference_ns; }
};

struct LearnerCpus {
  std::vector<std::vector<int>> learner;  // CPUs of learner thread (rank) r; empty: not reserved
  std::vector<int> others;                // every other thread's CPUs; empty: unchanged
  std::string description;                // for the start-up log
  bool reserved() const { return !learner.empty(); }
  // Learner thread `rank`'s CPUs; empty (anywhere) when none are reserved.
  std::vector<int> of_rank(int rank) const {
    return rank < static_cast<int>(learner.size()) ? learner[rank] : std::vector<int>{};
  }
};

// Per-CPU times from /proc/stat, in clock ticks: idle (idle + iowait) and all.
struct CpuTimes {
  std::uint64_t idle = 0, total = 0;
};
// The "cpuN ..." lines of /proc/stat's text, by N.
std::map<int, CpuTimes> parse_cpu_times(const std::string& proc_stat);
// How many CPUs' worth of time `cpus` spent busy between two samples (0 to
// cpus.size()); CPUs missing from either sample count as idle.
double busy_cpus(const std::map<int, CpuTimes>& before, const std::map<int, CpuTimes>& after,
                 const std::vector<int>& cpus);

// `mode`: auto | reserve | share. `cpus`: those the process may use.
// Each of `learner_threads` threads gets `torch_threads` CPUs, taken from the
// end of `cpus`. auto reserves when an env step takes under
// kExpensiveEnvStepNs, or when the learner's passes weigh at least
// kReserveBalance of the actors' work per CPU, and at least half of the CPUs
// that other work leaves idle stay for the rest: `busy` is the CPUs' worth
// of other work measured at start (busy_cpus), rounded. Pinned beside other
// work, the learner and the actors each get a share of fewer CPUs than the
// scheduler would give them unpinned. reserve needs one CPU left (else
// std::invalid_argument naming --learner-cpus); share never reserves. The
// description says which and why.
LearnerCpus plan_learner_cpus(const std::string& mode, const std::vector<int>& cpus, int learner_threads,
                              int torch_threads, const StepCost& cost, double busy = 0);

// The plan for `config` (its --learner-cpus and --torch-threads) and one
// thread per learner device of `placement`, over the calling thread's CPUs.
// auto times a few steps of `env` (at most 20 ms); where they are expensive,
// forward passes of the model at the inference's and the learner's batch
// sizes (about 50 ms each, forward_cost.h), the learner's passes counted as
// --epochs forward and backward passes, a backward pass as two forward ones;
// and where it would reserve, samples the CPUs' load from /proc/stat for
// 200 ms. It shares for R2D2 and SAC, whose learner replay paces, and for GPU
// learners (whose thread mostly waits on the device, and whose batch
// prefetch thread would share its CPU).
LearnerCpus learner_cpus_for(const TrainConfig& config, const Placement& placement, Env& env);

}  // namespace seedrl
