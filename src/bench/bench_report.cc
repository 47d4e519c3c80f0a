#include "seedrl/bench/bench_report.h"

#include <sched.h>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace seedrl::bench {

double slowest_stage_fps(const StageReport& r, std::string* name) {
  const std::pair<double, const char*> stages[] = {
      {r.env.frames_per_s, "env"}, {r.inference.requests_per_s, "inference"}, {r.learner.frames_per_s, "learner"}};
  const auto* slowest = &stages[0];
  for (const auto& s : stages)
    if (s.first < slowest->first) slowest = &s;
  if (name) *name = slowest->second;
  return slowest->first;
}

double pipeline_efficiency(const StageReport& r) {
  const double slowest = slowest_stage_fps(r);
  return slowest > 0 ? r.end_to_end.frames_per_s / slowest : 0;
}

CpuSharingBound cpu_sharing_bound(const StageReport& r, int cpus) {
  CpuSharingBound b;
  b.cpus = cpus;
  b.cpu_us_per_frame = r.env.cpu_us_per_frame + r.inference.cpu_us_per_frame + r.learner.cpu_us_per_frame;
  if (b.cpu_us_per_frame > 0) b.frames_per_s = cpus * 1e6 / b.cpu_us_per_frame;
  if (b.frames_per_s > 0) b.efficiency = r.end_to_end.frames_per_s / b.frames_per_s;
  return b;
}

int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

namespace {

std::string describe(const TrainConfig& c) {
  std::string hidden;
  for (int h : c.model.hidden) {
    if (!hidden.empty()) hidden += ',';
    hidden += std::to_string(h);
  }
  return fmt::format(
      "env {} | {} actors x {} envs | inference batch {} timeout {} us threads {} | device {} | "
      "model {}{}{}{} | unroll {} batch {} | torch threads {}",
      c.env, c.actors, c.envs_per_actor, c.inference_batch, c.inference_timeout_us, c.inference_threads, c.device,
      c.model.torso, c.model.torso == "mlp" ? "[" + hidden + "]" : std::string(),
      c.model.lstm ? fmt::format(" + lstm {}", c.model.lstm_size) : "",
      c.model.precision == "fp32" ? "" : fmt::format(" {}", c.model.precision), c.unroll_length, c.learner.batch_size,
      c.torch_threads);
}

nlohmann::json config_json(const TrainConfig& c) {
  return {{"env", c.env},
          {"algo", c.algo},
          {"actors", c.actors},
          {"envs_per_actor", c.envs_per_actor},
          {"inference_batch", c.inference_batch},
          {"inference_timeout_us", c.inference_timeout_us},
          {"inference_threads", c.inference_threads},
          {"inference_answer_first", c.inference_answer_first},
          {"device", c.device},
          {"torso", c.model.torso},
          {"hidden", c.model.hidden},
          {"lstm", c.model.lstm},
          {"lstm_size", c.model.lstm_size},
          {"precision", c.model.precision},
          {"unroll_length", c.unroll_length},
          {"batch_size", c.learner.batch_size},
          {"torch_threads", c.torch_threads}};
}

nlohmann::json breakdown_json(const EndToEndResult& e) {
  return {{"actor_step_fraction", e.actor_step_fraction},
          {"actor_wait_fraction", e.actor_wait_fraction},
          {"batch_fill_ms_mean", e.batch_fill_ms_mean},
          {"forward_ms_mean", e.forward_ms_mean},
          {"record_ms_mean", e.record_ms_mean},
          {"batch_mean", e.batch_mean},
          {"inference_timeout_fraction", e.inference_timeout_fraction},
          {"inference_graph_fraction", e.inference_graph_fraction},
          {"inference_idle_fraction", e.inference_idle_fraction},
          {"inference_push_wait_fraction", e.inference_push_wait_fraction},
          {"learner_step_ms_mean", e.learner_step_ms_mean},
          {"learner_wait_fraction", e.learner_wait_fraction},
          {"learner_steps", e.learner_steps}};
}

nlohmann::json machine_json() { return {{"hardware_threads", std::max(1u, std::thread::hardware_concurrency())}}; }

// A rate with its thousands grouped, as people read it: 1,234,567.
std::string grouped(double v) {
  if (!std::isfinite(v)) return fmt::format("{}", v);
  std::string digits = fmt::format("{:.0f}", std::abs(v));
  for (auto at = static_cast<std::ptrdiff_t>(digits.size()) - 3; at > 0; at -= 3) digits.insert(at, ",");
  return (v < 0 && digits != "0" ? "-" : "") + digits;
}

std::string learner_rows(const TrainConfig& c, const LearnerStageResult& l) {
  const std::string graphs =
      l.graph_fraction > 0 ? fmt::format(", {:.0f}% replayed as CUDA graphs", 100 * l.graph_fraction) : "";
  std::string out = fmt::format("{:<34} {:>14}  {:.1f} updates/s, {:.2f} ms each{}\n",
                                c.algo == "r2d2" ? "learner (r2d2, synthetic replay)" : "learner (synthetic unrolls)",
                                grouped(l.frames_per_s), l.steps_per_s, l.step_ms_mean, graphs);
  for (const auto& s : l.scaling)
    out += fmt::format("{:<34} {:>14}  {:.1f} updates/s, scaling efficiency {:.2f}\n",
                       fmt::format("  learner on {} device{}", s.replicas, s.replicas == 1 ? "" : "s"),
                       grouped(s.frames_per_s), s.steps_per_s, s.efficiency);
  return out;
}

void add_learner_json(const LearnerStageResult& l, nlohmann::json& j) {
  j["learner"] = {{"frames_per_s", l.frames_per_s},
                  {"steps_per_s", l.steps_per_s},
                  {"step_ms_mean", l.step_ms_mean},
                  {"graph_fraction", l.graph_fraction}};
  if (l.scaling.empty()) return;
  nlohmann::json scaling = nlohmann::json::array();
  for (const auto& s : l.scaling)
    scaling.push_back({{"learner_devices", s.replicas},
                       {"frames_per_s", s.frames_per_s},
                       {"steps_per_s", s.steps_per_s},
                       {"scaling_efficiency", s.efficiency}});
  j["learner_scaling"] = scaling;
}

}  // namespace

std::string format_table(const StageReport& r) {
  std::string slowest_name;
  const double slowest = slowest_stage_fps(r, &slowest_name);
  const auto& e = r.end_to_end;
  std::string out = describe(r.config) + "\n";
  out += fmt::format("{} s per stage after {} s warm-up\n\n", r.timing.seconds, r.timing.warmup_s);
  out += fmt::format("{:<34} {:>14}  {}\n", "stage", "frames/s", "detail");
  out += fmt::format("{:<34} {:>14}  random actions, no inference\n", "env (actor threads only)",
                     grouped(r.env.frames_per_s));
  if (r.env.frame_skip > 0)
    out += fmt::format(
        "{:<34} {:>14}  emulator frames per CPU-second: env {:.0f}, bare ALE act() loop {:.0f}; "
        "env overhead {:.1f}%\n",
        "  atari (frame skip " + std::to_string(r.env.frame_skip) + ")", "", r.env.emulator_frames_per_cpu_s,
        r.env.raw_emulator_frames_per_cpu_s, 100 * r.env.overhead());
  if (r.env.football_steps_per_cpu_s > 0)
    out += fmt::format(
        "{:<34} {:>14}  steps per CPU-second: env {:.0f}, bare engine loop {:.0f}; env overhead {:.1f}%; "
        "{:.0f} MB per env\n",
        "  football", "", r.env.football_steps_per_cpu_s, r.env.raw_football_steps_per_cpu_s,
        100 * r.env.football_overhead(), r.env.mb_per_env);
  out += fmt::format(
      "{:<34} {:>14}  latency p50 {:.0f} us p90 {:.0f} us p99 {:.0f} us, batch {:.1f}, forward {:.3f} ms\n",
      "inference (synthetic requests)", grouped(r.inference.requests_per_s), r.inference.latency_p50_us,
      r.inference.latency_p90_us, r.inference.latency_p99_us, r.inference.batch_mean, r.inference.forward_ms_mean);
  out += learner_rows(r.config, r.learner);
  out += fmt::format("{:<34} {:>14}  learner consumed {} frames/s\n", "end-to-end (training)", grouped(e.frames_per_s),
                     grouped(e.learner_frames_per_s));
  if (r.remote)
    out += fmt::format("{:<34} {:>14}  {:.0f}% of local actors, inference batch {:.1f}\n",
                       "end-to-end, remote actors (loopback)", grouped(r.remote->frames_per_s),
                       e.frames_per_s > 0 ? 100 * r.remote->frames_per_s / e.frames_per_s : 0.0, r.remote->batch_mean);
  out += fmt::format("\npipeline efficiency {:.2f} (end-to-end / slowest stage: {} at {} frames/s)\n",
                     pipeline_efficiency(r), slowest_name, grouped(slowest));
  const CpuSharingBound bound = cpu_sharing_bound(r, usable_cpus());
  out +=
      fmt::format("CPU per frame (CPU-us): env {:.3f}, inference {:.2f}, learner {:.2f}; end-to-end {:.2f}\n",
                  r.env.cpu_us_per_frame, r.inference.cpu_us_per_frame, r.learner.cpu_us_per_frame, e.cpu_us_per_frame);
  out += fmt::format(
      "CPU-sharing bound {} frames/s ({} CPUs / {:.2f} CPU-us, the stages' sum); "
      "end-to-end reaches {:.2f} of it\n",
      grouped(bound.frames_per_s), bound.cpus, bound.cpu_us_per_frame, bound.efficiency);
  out += "\nwhere end-to-end time goes\n";
  out += fmt::format("  actor threads      {:5.1f}% stepping envs, {:5.1f}% waiting for actions\n",
                     100 * e.actor_step_fraction, 100 * e.actor_wait_fraction);
  out += fmt::format(
      "  inference batch    fill {:.3f} ms, forward {:.3f} ms, record {:.3f} ms; {:.1f} rows, {:.0f}% on timeout\n",
      e.batch_fill_ms_mean, e.forward_ms_mean, e.record_ms_mean, e.batch_mean, 100 * e.inference_timeout_fraction);
  if (e.inference_graph_fraction > 0)
    out += fmt::format("  inference graphs   {:.0f}% of batches replayed as CUDA graphs\n",
                       100 * e.inference_graph_fraction);
  out += fmt::format("  inference threads  {:5.1f}% waiting for a batch, {:5.1f}% blocked on the full unroll queue\n",
                     100 * e.inference_idle_fraction, 100 * e.inference_push_wait_fraction);
  out += fmt::format("  learner            {:.2f} ms per update ({} updates), {:5.1f}% waiting for unrolls\n",
                     e.learner_step_ms_mean, e.learner_steps, 100 * e.learner_wait_fraction);
  out += fmt::format("  policy lag         {:.2f} updates\n", e.policy_lag_mean);
  return out;
}

std::string to_json(const StageReport& r) {
  std::string slowest_name;
  const double slowest = slowest_stage_fps(r, &slowest_name);
  nlohmann::json j;
  j["config"] = config_json(r.config);
  j["machine"] = machine_json();
  j["timing"] = {{"warmup_s", r.timing.warmup_s}, {"seconds", r.timing.seconds}};
  j["env_steps_per_s"] = r.env.frames_per_s;
  if (r.env.frame_skip > 0)
    j["atari"] = {{"frame_skip", r.env.frame_skip},
                  {"emulator_frames_per_cpu_s", r.env.emulator_frames_per_cpu_s},
                  {"raw_emulator_frames_per_cpu_s", r.env.raw_emulator_frames_per_cpu_s},
                  {"overhead", r.env.overhead()}};
  if (r.env.football_steps_per_cpu_s > 0)
    j["football"] = {{"steps_per_cpu_s", r.env.football_steps_per_cpu_s},
                     {"raw_steps_per_cpu_s", r.env.raw_football_steps_per_cpu_s},
                     {"overhead", r.env.football_overhead()},
                     {"mb_per_env", r.env.mb_per_env}};
  j["inference"] = {{"requests_per_s", r.inference.requests_per_s}, {"latency_p50_us", r.inference.latency_p50_us},
                    {"latency_p90_us", r.inference.latency_p90_us}, {"latency_p99_us", r.inference.latency_p99_us},
                    {"batch_mean", r.inference.batch_mean},         {"forward_ms_mean", r.inference.forward_ms_mean}};
  add_learner_json(r.learner, j);
  j["end_to_end_frames_per_s"] = r.end_to_end.frames_per_s;
  j["end_to_end_learner_frames_per_s"] = r.end_to_end.learner_frames_per_s;
  j["slowest_stage"] = slowest_name;
  j["slowest_stage_frames_per_s"] = slowest;
  j["pipeline_efficiency"] = pipeline_efficiency(r);
  const CpuSharingBound bound = cpu_sharing_bound(r, usable_cpus());
  j["cpu_us_per_frame"] = {{"env", r.env.cpu_us_per_frame},
                           {"inference", r.inference.cpu_us_per_frame},
                           {"learner", r.learner.cpu_us_per_frame},
                           {"end_to_end", r.end_to_end.cpu_us_per_frame}};
  j["cpu_sharing_bound"] = {{"cpus", bound.cpus},
                            {"stages_cpu_us_per_frame", bound.cpu_us_per_frame},
                            {"frames_per_s", bound.frames_per_s},
                            {"efficiency", bound.efficiency}};
  j["breakdown"] = breakdown_json(r.end_to_end);
  j["policy_lag"] = r.end_to_end.policy_lag_mean;
  if (r.remote) {
    j["remote_end_to_end_frames_per_s"] = r.remote->frames_per_s;
    j["remote_vs_local"] = r.end_to_end.frames_per_s > 0 ? r.remote->frames_per_s / r.end_to_end.frames_per_s : 0.0;
    j["remote_breakdown"] = breakdown_json(*r.remote);
  }
  return j.dump(2) + "\n";
}

std::string format_learner_table(const TrainConfig& config, const BenchTiming& timing,
                                 const LearnerStageResult& learner) {
  std::string out = describe(config) + "\n";
  out += fmt::format("{} s per run after {} s warm-up\n\n", timing.seconds, timing.warmup_s);
  out += fmt::format("{:<34} {:>14}  {}\n", "stage", "frames/s", "detail");
  return out + learner_rows(config, learner);
}

std::string learner_to_json(const TrainConfig& config, const BenchTiming& timing, const LearnerStageResult& learner) {
  nlohmann::json j;
  j["config"] = config_json(config);
  j["machine"] = machine_json();
  j["timing"] = {{"warmup_s", timing.warmup_s}, {"seconds", timing.seconds}};
  add_learner_json(learner, j);
  return j.dump(2) + "\n";
}

Sweep parse_sweep(const std::string& spec) {
  const auto bad = [&](const std::string& why) {
    return std::invalid_argument(
        fmt::format("--sweep '{}': {} (expected KEY=V1,V2,... with KEY actors, envs-per-actor, inference-batch or "
                    "inference-answer-first, whose values are 1 and 0)",
                    spec, why));
  };
  const auto eq = spec.find('=');
  if (eq == std::string::npos) throw bad("no '='");
  Sweep s;
  s.key = spec.substr(0, eq);
  if (s.key != "actors" && s.key != "envs-per-actor" && s.key != "inference-batch" && s.key != "inference-answer-first")
    throw bad("unknown key");
  // An on/off key alternates its two settings (1,0,1,0) to see one against
  // the other through a machine's drift.
  const bool on_off = s.key == "inference-answer-first";
  std::string rest = spec.substr(eq + 1);
  std::size_t pos = 0;
  while (pos <= rest.size()) {
    const auto comma = std::min(rest.find(',', pos), rest.size());
    const std::string item = rest.substr(pos, comma - pos);
    std::size_t used = 0;
    long v = 0;
    try {
      v = std::stol(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (on_off && (item.empty() || used != item.size() || (v != 0 && v != 1)))
      throw bad("'" + item + "' is neither 1 (on) nor 0 (off)");
    if (!on_off && (item.empty() || used != item.size() || v < 1 || v > (1 << 20)))
      throw bad("'" + item + "' is not an integer in [1, 1048576]");
    s.values.push_back(static_cast<int>(v));
    pos = comma + 1;
  }
  return s;
}

TrainConfig sweep_config(const TrainConfig& base, const Sweep& sweep, int value) {
  TrainConfig c = base;
  if (sweep.key == "actors") c.actors = value;
  if (sweep.key == "envs-per-actor") c.envs_per_actor = value;
  if (sweep.key == "inference-batch") c.inference_batch = value;
  if (sweep.key == "inference-answer-first") c.inference_answer_first = value != 0;
  resolve_defaults(c);
  return c;
}

std::string format_sweep_table(const Sweep& sweep, const std::vector<SweepRow>& rows) {
  std::string out = fmt::format("{:>16} {:>8} {:>8} {:>10} {:>14} {:>9} {:>9} {:>9} {:>8}\n", sweep.key, "actors",
                                "envs", "inf.batch", "frames/s", "vs first", "act.wait", "batch", "lag");
  const double first = rows.empty() ? 0 : rows.front().result.frames_per_s;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& c = rows[i].config;
    const auto& e = rows[i].result;
    out += fmt::format("{:>16} {:>8} {:>8} {:>10} {:>14} {:>8.0f}% {:>8.0f}% {:>9.1f} {:>8.2f}\n", sweep.values[i],
                       c.actors, c.envs_per_actor, c.inference_batch, grouped(e.frames_per_s),
                       first > 0 ? 100 * e.frames_per_s / first : 0.0, 100 * e.actor_wait_fraction, e.batch_mean,
                       e.policy_lag_mean);
  }
  return out;
}

std::string sweep_to_json(const Sweep& sweep, const std::vector<SweepRow>& rows, const BenchTiming& timing) {
  nlohmann::json j;
  j["sweep"] = sweep.key;
  j["machine"] = machine_json();
  j["timing"] = {{"warmup_s", timing.warmup_s}, {"seconds", timing.seconds}};
  j["runs"] = nlohmann::json::array();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    j["runs"].push_back({{"value", sweep.values[i]},
                         {"config", config_json(rows[i].config)},
                         {"end_to_end_frames_per_s", rows[i].result.frames_per_s},
                         {"breakdown", breakdown_json(rows[i].result)},
                         {"policy_lag", rows[i].result.policy_lag_mean}});
  }
  return j.dump(2) + "\n";
}

}  // namespace seedrl::bench
