// What `seedrl bench` prints and writes: the stage figures, the end-to-end
// figure, pipeline efficiency and the end-to-end time breakdown; and the
// parsing and table of `--sweep KEY=V1,V2,...`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "seedrl/bench/stage_bench.h"

namespace seedrl::bench {

struct StageReport {
  TrainConfig config;  // resolved
  BenchTiming timing;
  EnvStageResult env;
  InferenceStageResult inference;
  LearnerStageResult learner;
  EndToEndResult end_to_end;
  std::optional<EndToEndResult> remote;  // --remote: the same actors over loopback
};

// The slowest stage's throughput in frames (env steps, inference rows and
// learner frames all count one env step each), and its name.
double slowest_stage_fps(const StageReport& r, std::string* name = nullptr);
// End-to-end frames/s over the slowest stage's.
double pipeline_efficiency(const StageReport& r);

// Each stage alone gets the whole machine; in the pipeline the stages share
// its CPUs. If they can only time-share the CPU, frames/s is at most
// CPUs / (the stages' CPU time per frame, summed): on a small CPU-only
// machine that, not the slowest stage, is what end-to-end can reach.
struct CpuSharingBound {
  int cpus = 0;                 // CPUs this process may run on
  double cpu_us_per_frame = 0;  // env + inference + learner stages
  double frames_per_s = 0;      // cpus / cpu_us_per_frame
  double efficiency = 0;        // end-to-end frames/s over frames_per_s
};
CpuSharingBound cpu_sharing_bound(const StageReport& r, int cpus);
// The CPUs in this process's affinity mask.
int usable_cpus();

std::string format_table(const StageReport& r);
// The same figures as JSON (pretty-printed).
std::string to_json(const StageReport& r);

// `bench --algo r2d2`: the learner stage alone (with its scaling rows), as a
// table and as JSON.
std::string format_learner_table(const TrainConfig& config, const BenchTiming& timing,
                                 const LearnerStageResult& learner);
std::string learner_to_json(const TrainConfig& config, const BenchTiming& timing, const LearnerStageResult& learner);

// --sweep: one setting changed across end-to-end runs.
struct Sweep {
  std::string key;  // actors | envs-per-actor | inference-batch
  std::vector<int> values;
};
// Throws std::invalid_argument naming --sweep for a malformed spec.
Sweep parse_sweep(const std::string& spec);
// `base` with key set to value; inference batch re-resolved unless it is the key.
TrainConfig sweep_config(const TrainConfig& base, const Sweep& sweep, int value);

struct SweepRow {
  TrainConfig config;
  EndToEndResult result;
};
std::string format_sweep_table(const Sweep& sweep, const std::vector<SweepRow>& rows);
std::string sweep_to_json(const Sweep& sweep, const std::vector<SweepRow>& rows, const BenchTiming& timing);

}  // namespace seedrl::bench
