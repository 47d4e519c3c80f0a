#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>
#include <toml++/toml.h>
#include <nlohmann/json.hpp>

#include "seedrl/io/input_file.h"
#include "seedrl/report/json_table.h"
#include "seedrl/report/run_data.h"
#include "seedrl/report/text.h"
#include "seedrl/util/renamed_settings.h"

namespace seedrl::report {

namespace fs = std::filesystem;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Caps on what a run directory may make this process hold: a week-long run
// logging every 5 s writes ~100 MiB of metrics.jsonl.
constexpr std::size_t kMaxMetricsBytes = std::size_t{512} << 20;
constexpr std::size_t kMaxSmallFileBytes = std::size_t{4} << 20;
constexpr std::size_t kMaxKeys = 256;
constexpr std::size_t kMaxKeyBytes = 128;
// Lines x columns: each column holds a value per line (NaN where a line lacks
// it), so a file of millions of short lines beside one of many keys would
// take tens of GB. A week logged every second with 60 columns is 36M.
constexpr std::size_t kMaxCells = std::size_t{1} << 26;

[[noreturn]] void refuse(const std::string& where, const std::string& why) {
  throw std::invalid_argument(one_line(where) + ": " + why);
}

// Every line's metrics, in file order, before resumes are resolved.
struct Lines {
  std::vector<double> frames;
  std::map<std::string, std::vector<double>> metrics;
};

Lines parse_metrics(const std::string& path) {
  const std::string text = read_regular_file(path, "metrics file", kMaxMetricsBytes);
  Lines out;
  std::size_t line_no = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const bool unfinished = end == text.size();
    const std::string_view line(text.data() + at, end - at);
    at = end + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const std::string where = fmt::format("{}:{}", path, line_no);
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(line);
    } catch (const nlohmann::json::parse_error& e) {
      if (unfinished) break;  // a line still being written
      // Cut off at its end: a process killed while writing it, whose resume
      // went on from the next line. Any other error is refused.
      if (e.byte >= line.size()) continue;
      refuse(where, fmt::format("not a JSON line (syntax error at column {})", e.byte));
    } catch (const nlohmann::json::out_of_range&) {
      refuse(where, "not a JSON line (a number beyond a double's range)");
    }
    if (!j.is_object()) refuse(where, "not a JSON object");
    const auto f = j.find("frames");
    if (f == j.end() || !f->is_number() || !std::isfinite(f->get<double>())) refuse(where, "no \"frames\" number");
    const std::size_t row = out.frames.size();
    if ((row + 1) * std::max<std::size_t>(1, out.metrics.size()) > kMaxCells)
      refuse(where,
             fmt::format("more values than a report charts ({} lines of {} columns)", row + 1, out.metrics.size()));
    out.frames.push_back(f->get<double>());
    for (const auto& [key, value] : j.items()) {
      if (key == "frames" || key.size() > kMaxKeyBytes) continue;
      auto it = out.metrics.find(key);
      if (it == out.metrics.end()) {
        if (out.metrics.size() >= kMaxKeys || (row + 1) * (out.metrics.size() + 1) > kMaxCells) continue;
        it = out.metrics.emplace(key, std::vector<double>()).first;
      }
      it->second.resize(row, kNaN);
      it->second.push_back(value.is_number() ? value.get<double>() : kNaN);
    }
  }
  for (auto& [key, values] : out.metrics) values.resize(out.frames.size(), kNaN);
  return out;
}

// Each process's wall_seconds counts from its own start: a value below the
// previous one starts a resumed process, which continues the run's time.
void accumulate_wall_time(std::vector<double>& wall) {
  double offset = 0, last = 0;
  for (double& w : wall) {
    if (!std::isfinite(w)) continue;
    if (w < last) offset += last;
    last = w;
    w += offset;
  }
}

// The lines to keep: a resumed run starts again at its checkpoint's frames,
// and what it logs from there replaces the earlier process's lines past it.
std::vector<std::size_t> kept_lines(const std::vector<double>& frames) {
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    while (!kept.empty() && frames[kept.back()] >= frames[i]) kept.pop_back();
    kept.push_back(i);
  }
  return kept;
}

std::string toml_text(const toml::node& v) {
  if (const auto* s = v.as_string()) return s->get();
  std::ostringstream out;
  v.visit([&out](const auto& n) { out << n; });
  return out.str();
}

// Settings that change where and how often a run writes, not what it
// learns: runs differing only in these (and the seed) are seeds of one setting.
bool output_only(const std::string& name) {
  return name == "logdir" || name == "report-every-s" || name == "dashboard" || name == "log-interval-s" ||
         name == "checkpoint-every-s" || name == "checkpoint-replay";
}

void load_config(const std::string& path, RunData& run) {
  const std::string text = read_regular_file(path, "config file", kMaxSmallFileBytes);
  toml::table table;
  try {
    table = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    refuse(fmt::format("{}:{}", path, e.source().begin.line), one_line(e.description(), 200));
  }
  toml::table identity;
  for (const auto& [key, value] : table) {
    std::string name(key.str());
    run.config.emplace_back(name, toml_text(value));
    std::replace(name.begin(), name.end(), '_', '-');
    name = current_setting_name(name);  // a run from before a rename is the same setting
    if (name == "seed")
      run.seed = toml_text(value);
    else if (!output_only(name))
      identity.insert_or_assign(name, value);
  }
  std::ostringstream canonical;
  canonical << identity;
  run.config_identity = canonical.str();
  run.has_config = true;
}

void load_summary(const std::string& path, RunData& run) {
  const std::string text = read_regular_file(path, "summary file", kMaxSmallFileBytes);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    refuse(path, fmt::format("not JSON (syntax error at byte {})", e.byte));
  } catch (const nlohmann::json::out_of_range&) {
    refuse(path, "not JSON (a number beyond a double's range)");
  }
  if (!j.is_object()) refuse(path, "not a JSON object");
  run.summary = flatten_json(j);
}

bool present(const fs::path& p) {
  std::error_code ec;
  return fs::exists(p, ec);
}

}  // namespace

const std::vector<double>* RunData::metric(const std::string& key) const {
  const auto it = metrics.find(key);
  return it == metrics.end() ? nullptr : &it->second;
}

RunData load_run(const std::string& logdir) {
  std::error_code ec;
  if (!fs::is_directory(logdir, ec)) refuse(logdir, present(logdir) ? "not a directory" : "no such run directory");
  const fs::path dir(logdir);
  if (!present(dir / "metrics.jsonl")) refuse(logdir, "no metrics.jsonl (not a seedrl train --logdir?)");

  RunData run;
  run.logdir = logdir;
  Lines lines = parse_metrics((dir / "metrics.jsonl").string());
  if (auto it = lines.metrics.find("wall_seconds"); it != lines.metrics.end()) accumulate_wall_time(it->second);
  const std::vector<std::size_t> kept = kept_lines(lines.frames);
  auto select = [&kept](const std::vector<double>& all) {
    std::vector<double> out;
    out.reserve(kept.size());
    for (const std::size_t i : kept) out.push_back(all[i]);
    return out;
  };
  run.frames = select(lines.frames);
  for (const auto& [key, values] : lines.metrics) run.metrics.emplace(key, select(values));

  if (present(dir / "config.toml")) load_config((dir / "config.toml").string(), run);
  if (present(dir / "summary.json")) load_summary((dir / "summary.json").string(), run);
  return run;
}

}  // namespace seedrl::report
