#include "seedrl/report/report_charts.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "seedrl/report/seed_aggregate.h"

namespace seedrl::report {

namespace {

constexpr std::size_t kMaxPointsPerSeries = 2000;  // a page that opens quickly
constexpr std::size_t kMaxMetricCharts = 64;
constexpr const char* kReturn = "episode_return_mean";
constexpr const char* kWall = "wall_seconds";

// The order metric charts come in; other keys follow in name order.
const std::vector<std::string> kFirstMetrics = {
    "eval_return_mean", "ended_goal",    "fps",         "episode_length_mean", "total_loss",
    "pg_loss",          "baseline_loss", "critic_loss", "actor_loss",          "q_mean",
    "entropy",          "temperature",   "policy_lag",  "queue_size",          "inference_batch_mean",
    "grad_norm",        "learning_rate"};
// Keys that are an axis, or charted above the metrics.
const std::set<std::string> kNotMetrics = {kReturn,
                                           kWall,
                                           "atari_frames",
                                           "eval_episodes",
                                           "eval_frames",
                                           "target_return",
                                           "target_mean_return",
                                           "target_frames",
                                           "target_wall_seconds",
                                           "target_learner_steps",
                                           "target_episodes"};

// A series of (x, y) with a value, at most kMaxPointsPerSeries of them
// (evenly spaced, the last one kept).
ChartSeries plain_series(const std::string& name, const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<std::size_t> valid;
  for (std::size_t i = 0; i < std::min(x.size(), y.size()); ++i)
    if (std::isfinite(x[i]) && std::isfinite(y[i])) valid.push_back(i);
  ChartSeries s{name, {}};
  const std::size_t n = valid.size();
  const std::size_t keep = std::min(n, kMaxPointsPerSeries);
  for (std::size_t k = 0; k < keep; ++k) {
    const std::size_t i = valid[keep == n ? k : k * (n - 1) / (keep - 1)];
    s.points.push_back({x[i], y[i], y[i], y[i]});
  }
  if (!std::is_sorted(s.points.begin(), s.points.end(), [](const auto& a, const auto& b) { return a.x < b.x; }))
    std::stable_sort(s.points.begin(), s.points.end(), [](const auto& a, const auto& b) { return a.x < b.x; });
  return s;
}

const std::vector<double> kNone;

const std::vector<double>& values(const RunData& run, const std::string& key) {
  const auto* v = run.metric(key);
  return v ? *v : kNone;
}

std::string group_name(const std::vector<std::size_t>& group, const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t k = 0; k < group.size() && k < 4; ++k) out += (k ? ", " : "") + names[group[k]];
  if (group.size() > 4) out += ", …";
  return fmt::format("{} (mean of {} seeds)", out, group.size());
}

// The run's first finite value of `key`, if any.
std::optional<double> first_value(const RunData& run, const std::string& key) {
  for (const double v : values(run, key))
    if (std::isfinite(v)) return v;
  return std::nullopt;
}

// Where the run reached its --target-return, on a chart against `x_key`.
std::optional<ChartMarker> target_marker(const RunData& run, const std::string& name, const std::string& x_key) {
  const auto x = first_value(run, x_key.empty() ? "target_frames" : "target_wall_seconds");
  const auto target = first_value(run, "target_return");
  const auto frames = first_value(run, "target_frames");
  const auto wall = first_value(run, "target_wall_seconds");
  if (!x || !target || !frames || !wall) return std::nullopt;
  return ChartMarker{*x, *target,
                     fmt::format("{}: target {:g} at {:.4g} frames, {:.0f} s", name, *target, *frames, *wall)};
}

// Episode return against `x_key` ("" for frames): a run alone as its line, a
// group of seeds as its mean and band.
Chart return_chart(const std::vector<RunData>& runs, const std::vector<std::vector<std::size_t>>& groups,
                   const std::vector<std::string>& names, const std::string& x_key, const std::string& xlabel) {
  Chart chart{"Episode return (mean of the last 100 episodes)", xlabel, "episode return", true, {}, {}};
  auto xs = [&](const RunData& run) -> const std::vector<double>& {
    return x_key.empty() ? run.frames : values(run, x_key);
  };
  for (const auto& group : groups)
    for (const std::size_t i : group)
      if (auto m = target_marker(runs[i], names[i], x_key)) chart.markers.push_back(std::move(*m));
  for (const auto& group : groups) {
    if (group.size() == 1) {
      const RunData& run = runs[group.front()];
      ChartSeries s = plain_series(names[group.front()], xs(run), values(run, kReturn));
      if (!s.points.empty()) chart.series.push_back(std::move(s));
      continue;
    }
    std::vector<Curve> seeds;
    for (const std::size_t i : group) seeds.push_back({xs(runs[i]), values(runs[i], kReturn)});
    const Band band = seed_band(seeds);
    ChartSeries s{group_name(group, names), {}};
    for (std::size_t i = 0; i < band.x.size(); ++i)
      s.points.push_back({band.x[i], band.low[i], band.mean[i], band.high[i]});
    if (!s.points.empty()) chart.series.push_back(std::move(s));
  }
  return chart;
}

// A metric chart's y-axis title: what the value measures, in its unit.
std::string metric_quantity(const std::string& key) {
  static const std::map<std::string, std::string> kQuantities = {
      {"eval_return_mean", "evaluation return"},
      {"fps", "frames per second"},
      {"episode_length_mean", "steps per episode"},
      {"total_loss", "loss"},
      {"pg_loss", "policy-gradient loss"},
      {"baseline_loss", "baseline loss"},
      {"entropy", "entropy (nats)"},
      {"policy_lag", "policy lag (updates)"},
      {"queue_size", "unrolls queued"},
      {"inference_batch_mean", "observations per batch"},
      {"grad_norm", "gradient norm"},
      {"learning_rate", "learning rate"},
      {"mean_rho", "importance weight"},
      {"clip_fraction", "share of steps past the PPO clip"},
      {"episodes", "episodes"},
      {"learner_steps", "learner updates"},
      {"inference_timeouts", "part-full batches (total)"},
      {"critic_loss", "critic loss"},
      {"actor_loss", "actor loss"},
      {"temperature_loss", "temperature loss"},
      {"temperature", "temperature (alpha)"},
      {"q_mean", "Q value"},
      {"td_error", "TD error"},
      {"replay_size", "transitions or sequences held"},
      {"replay_sample_rate", "samples per second"},
      {"replay_insert_rate", "inserts per second"},
  };
  const auto it = kQuantities.find(key);
  if (it != kQuantities.end()) return it->second;
  if (key.rfind("ended_", 0) == 0) return "share of the last episodes";  // how episodes ended (Football)
  return key;
}

std::vector<std::string> metric_keys(const std::vector<RunData>& runs) {
  std::set<std::string> present;
  for (const RunData& run : runs)
    for (const auto& [key, v] : run.metrics)
      if (!kNotMetrics.count(key) && std::any_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); }))
        present.insert(key);
  std::vector<std::string> keys;
  for (const auto& k : kFirstMetrics)
    if (present.erase(k)) keys.push_back(k);
  keys.insert(keys.end(), present.begin(), present.end());
  if (keys.size() > kMaxMetricCharts) keys.resize(kMaxMetricCharts);
  return keys;
}

}  // namespace

std::vector<std::string> run_names(const std::vector<RunData>& runs) {
  std::vector<std::string> names;
  for (const RunData& run : runs) {
    std::filesystem::path p(run.logdir);
    if (!p.has_filename()) p = p.parent_path();  // "runs/a/"
    std::string name = p.filename().string();
    names.push_back(name.empty() || name == "." || name == ".." ? run.logdir : name);
  }
  std::vector<std::string> out = names;
  for (std::size_t i = 0; i < runs.size(); ++i)
    if (std::count(names.begin(), names.end(), names[i]) > 1) out[i] = runs[i].logdir;
  // Labels must differ (dygraphs keys series by them), even for one path given twice.
  for (std::size_t i = 0; i < out.size(); ++i)
    for (int n = 2; std::count(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(i), out[i]) > 0; ++n)
      out[i] = fmt::format("{} ({})", names[i], n);
  return out;
}

void add_charts(const std::vector<RunData>& runs, const std::vector<std::vector<std::size_t>>& groups,
                const std::vector<std::string>& names, ReportPage& page) {
  page.return_charts.push_back(return_chart(runs, groups, names, "", "frames"));
  page.return_charts.push_back(return_chart(runs, groups, names, kWall, "wall seconds"));
  for (const auto& group : groups) {
    if (group.size() < 2) continue;
    page.notes.push_back(group_name(group, names) +
                         ": runs whose config.toml differ only in seed. The line is their mean, each interpolated "
                         "linearly onto 100 points over the range all of them cover; the band is a 95% bootstrap "
                         "confidence interval of that mean over seeds (2000 resamples).");
  }
  for (const std::string& key : metric_keys(runs)) {
    Chart chart{key, "frames", metric_quantity(key), false, {}, {}};
    for (std::size_t i = 0; i < runs.size(); ++i) {
      ChartSeries s = plain_series(names[i], runs[i].frames, values(runs[i], key));
      if (!s.points.empty()) chart.series.push_back(std::move(s));
    }
    page.metric_charts.push_back(std::move(chart));
  }
}

}  // namespace seedrl::report
