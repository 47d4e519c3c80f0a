// `seedrl bench`: each pipeline stage alone, then the whole pipeline, for one
// configuration; or `--sweep KEY=V1,V2,...`: the whole pipeline per value.
#include <algorithm>
#include <fstream>
#include <memory>

#include <fmt/format.h>
#include <torch/torch.h>
#include <CLI/CLI.hpp>

#include "seedrl/bench/bench_report.h"
#include "seedrl/cli/commands.h"
#include "seedrl/cli/env_defaults.h"
#include "seedrl/cli/env_flags.h"
#include "seedrl/cli/pipeline_flags.h"
#include "seedrl/cli/r2d2_flags.h"
#include "seedrl/cli/validators.h"
#include "seedrl/env/registry.h"
#include "seedrl/io/output_path.h"
#include "seedrl/model/torso.h"
#include "seedrl/trainer/placement.h"
#include "seedrl/trainer/r2d2_setup.h"
#include "seedrl/util/heap_tuning.h"
#include "seedrl/util/signal_watcher.h"
#include "seedrl/util/torch_runtime.h"

namespace seedrl {

namespace {

struct BenchOptions {
  TrainConfig config;
  bench::BenchTiming timing;
  std::string json_path;
  std::string sweep;
  bool remote = false;
  int profile_learner = 0;  // updates; 0: no profile
};

void write_json(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  out.flush();
  if (!out) throw std::invalid_argument(fmt::format("--json: cannot write '{}'", path));
}

int run_bench(BenchOptions o) {
  SignalWatcher stop_watcher(exit_on_stop_signal);  // the stages have nothing to save
  TrainConfig& c = o.config;
  if (o.profile_learner > 0 && c.algo != "vtrace")
    throw std::invalid_argument("--profile-learner: V-trace's learner only (not --algo " + c.algo + ")");
  if (o.profile_learner > 0 && (!o.sweep.empty() || o.remote))
    throw std::invalid_argument(std::string("--profile-learner: runs alone, without ") +
                                (o.remote ? "--remote" : "--sweep"));
  // The table names the model that runs, not "auto".
  c.model.torso = resolve_torso(EnvRegistry::builtin().make(c.env, c.env_options)->spec().observation, c.model.torso);
  const TrainConfig as_given = c;  // sweeps re-resolve the other "auto" values per setting
  resolve_defaults(c);
  const bench::Sweep sweep = o.sweep.empty() ? bench::Sweep{} : bench::parse_sweep(o.sweep);
  // The largest actor count this process will run decides the heap arenas.
  const int most_actors =
      sweep.key == "actors" ? *std::max_element(sweep.values.begin(), sweep.values.end()) : c.actors;
  share_one_heap_arena_for(most_actors);
  // A bad --device or device list fails before any stage runs.
  const Placement placement = resolve_placement(c);
  fmt::print(stderr, "bench: devices: {}\n", placement.describe());
  configure_torch_runtime(c.torch_threads,
                          placement.inference.front().is_cuda() || placement.learner.front().is_cuda());
  if (!o.json_path.empty()) write_json(o.json_path, "{}\n");  // fail early on an unwritable path

  if (o.profile_learner > 0) {
    fmt::print(stderr, "bench: learner profile ...\n");
    fmt::print("{}", bench::format_learner_profile(c, bench::profile_learner_update(c, o.profile_learner)));
    return 0;
  }

  if (c.algo == "r2d2") {
    // The actors, inference and end-to-end stages are V-trace's pipeline;
    // R2D2 is measured at its learner, where its data-parallel scaling shows.
    if (!o.sweep.empty() || o.remote)
      throw std::invalid_argument(std::string(o.remote ? "--remote" : "--sweep") +
                                  ": end-to-end runs are V-trace only; --algo r2d2 measures the learner stage");
    validate_r2d2_config(c);
    fmt::print(stderr, "bench: r2d2 learner stage ...\n");
    const auto learner = bench::bench_learner_stage(c, o.timing);
    fmt::print("{}", bench::format_learner_table(c, o.timing, learner));
    if (!o.json_path.empty()) write_json(o.json_path, bench::learner_to_json(c, o.timing, learner));
    return 0;
  }

  if (!o.sweep.empty()) {
    std::vector<bench::SweepRow> rows;
    for (int v : sweep.values) {
      TrainConfig run = bench::sweep_config(as_given, sweep, v);
      fmt::print(stderr, "bench: end-to-end with {}={} ...\n", sweep.key, v);
      rows.push_back({run, bench::bench_end_to_end(run, o.timing)});
    }
    fmt::print("{}", bench::format_sweep_table(sweep, rows));
    if (!o.json_path.empty()) write_json(o.json_path, bench::sweep_to_json(sweep, rows, o.timing));
    return 0;
  }

  bench::StageReport r;
  r.config = c;
  r.timing = o.timing;
  fmt::print(stderr, "bench: env stage ...\n");
  r.env = bench::bench_env_stage(c, o.timing);
  fmt::print(stderr, "bench: inference stage ...\n");
  r.inference = bench::bench_inference_stage(c, o.timing);
  fmt::print(stderr, "bench: learner stage ...\n");
  r.learner = bench::bench_learner_stage(c, o.timing);
  fmt::print(stderr, "bench: end-to-end ...\n");
  r.end_to_end = bench::bench_end_to_end(c, o.timing);
  if (o.remote) {
    fmt::print(stderr, "bench: end-to-end with remote actors on loopback ...\n");
    r.remote = bench::bench_end_to_end(c, o.timing, /*remote=*/true);
  }
  fmt::print("{}", bench::format_table(r));
  if (!o.json_path.empty()) write_json(o.json_path, bench::to_json(r));
  return 0;
}

}  // namespace

CommandRunner add_bench_command(CLI::App& app) {
  auto options = std::make_shared<BenchOptions>();
  BenchOptions& o = *options;
  TrainConfig& c = o.config;
  c.actors = default_actors();
  CLI::App* cmd = app.add_subcommand(
      "bench", "Measure each pipeline stage alone and the whole pipeline (frames/s, latency, where time goes)");
  cmd->option_defaults()->always_capture_default();
  cmd->add_option("--env", c.env, "Environment name (see `seedrl envs`)")->transform(env_name_validator());
  cmd->add_option("--actors", c.actors, "Actor threads")->check(in_range(1, 1 << 20));
  add_pipeline_flags(*cmd, c);
  cmd->add_option("--seconds", o.timing.seconds, "Measured seconds per stage (and per sweep value)")
      ->check(in_range(0.01, 3600.0));
  cmd->add_option("--warmup-s", o.timing.warmup_s, "Seconds run and discarded before each measurement")
      ->check(in_range(0.0, 3600.0));
  cmd->add_option("--json", o.json_path, "Also write the figures to this JSON file");
  cmd->add_option("--sweep", o.sweep,
                  "End-to-end frames/s per value of one setting: actors=64,256,... | envs-per-actor=... | "
                  "inference-batch=...");
  cmd->add_flag("--remote", o.remote,
                "Also run end to end with the same actors as remote actors over loopback, and compare");
  cmd->add_option("--profile-learner", o.profile_learner,
                  "Only time the phases of N V-trace learner updates (device synchronised around each)")
      ->check(in_range(1, 100000))
      ->default_str("off");
  // --algo r2d2: R2D2's learner stage alone, on 1..N learner devices. Not
  // sac: bench measures V-trace's pipeline and R2D2's learner (time a SAC
  // run with `seedrl train`), so --algo sac is refused as it is parsed.
  add_r2d2_learner_flags(*cmd, c, {"vtrace", "r2d2"});
  check_number_options(*cmd);
  return [cmd, options]() -> int {
    if (!cmd->parsed()) return -1;
    check_env_family_flags(*cmd, options->config.env);
    apply_r2d2_defaults(*cmd, options->config);
    apply_env_defaults(*cmd, options->config);
    // Bench reads no file: --json is checked only for what it names.
    if (!options->json_path.empty()) check_output_path("--json", options->json_path, {});
    return run_bench(*options);
  };
}

}  // namespace seedrl
