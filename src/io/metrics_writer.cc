#include "seedrl/io/metrics_writer.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "seedrl/io/replace_file.h"

#include <nlohmann/json.hpp>

namespace seedrl {

namespace {
nlohmann::json to_json(const Scalars& s) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : s) {
    // Counters print as integers; NaN/inf are not JSON.
    if (!std::isfinite(v))
      j[k] = nullptr;
    else if (v == std::floor(v) && std::abs(v) < 9e15)
      j[k] = static_cast<std::int64_t>(v);
    else
      j[k] = v;
  }
  return j;
}

std::string jsonl_path(const std::string& logdir) {
  std::filesystem::create_directories(logdir);
  return (std::filesystem::path(logdir) / "metrics.jsonl").string();
}

std::string csv_path(const std::string& logdir) { return (std::filesystem::path(logdir) / "metrics.csv").string(); }

// The columns of an existing metrics.csv's header, or none. Our own file;
// metric names hold no commas or quotes.
std::vector<std::string> csv_header(const std::string& path) {
  std::vector<std::string> columns;
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line) || line.size() > 65536) return columns;
  std::stringstream fields(line);
  for (std::string field; std::getline(fields, field, ',');) columns.push_back(field);
  return columns;
}

// Numbers as metrics.jsonl has them: counters as integers, others in full
// precision; NaN (no value yet) as an empty field.
std::string csv_field(double v) {
  if (!std::isfinite(v)) return "";
  if (v == std::floor(v) && std::abs(v) < 9e15) return std::to_string(static_cast<std::int64_t>(v));
  return fmt::format("{}", v);
}
}  // namespace

MetricsWriter::MetricsWriter(const std::string& logdir)
    : logdir_(logdir),
      jsonl_(jsonl_path(logdir), OutputFile::Mode::kAppend),
      csv_(csv_path(logdir), OutputFile::Mode::kAppend),
      csv_columns_(csv_header(csv_path(logdir))),
      tensorboard_(std::make_unique<TensorBoardWriter>(logdir)) {}

void MetricsWriter::write(const Scalars& scalars, double wall_time_seconds) {
  jsonl_.write(to_json(scalars).dump() + '\n');
  if (csv_columns_.empty()) {
    csv_columns_.push_back("frames");
    for (const auto& [k, v] : scalars)
      if (k != "frames") csv_columns_.push_back(k);
    std::string header;
    for (const auto& c : csv_columns_) header += (header.empty() ? "" : ",") + c;
    csv_.write(header + '\n');
  }
  std::string row;
  for (std::size_t i = 0; i < csv_columns_.size(); ++i) {
    if (i > 0) row += ',';
    if (auto it = scalars.find(csv_columns_[i]); it != scalars.end()) row += csv_field(it->second);
  }
  csv_.write(row + '\n');
  const auto step = static_cast<std::int64_t>(scalars.at("frames"));
  for (const auto& [k, v] : scalars) {
    if (k != "frames" && std::isfinite(v)) tensorboard_->add_scalar(k, v, step, wall_time_seconds);
  }
  tensorboard_->flush();
}

void MetricsWriter::write_summary(const Scalars& scalars) {
  // Only one writer: a fixed temporary name.
  const std::string path = (std::filesystem::path(logdir_) / "summary.json").string();
  nlohmann::json j = to_json(scalars);
  // Whether the run reached --max-frames (or its --target-return with
  // --stop-at-target): a yes or no, not a count.
  for (const char* key : {"completed", "stopped_at_target"})
    if (const auto it = scalars.find(key); it != scalars.end()) j[key] = it->second != 0;
  replace_file_via(path, path + ".tmp", j.dump(2) + '\n');
}

void MetricsWriter::close() {
  jsonl_.sync();
  jsonl_.close();
  csv_.sync();
  csv_.close();
  tensorboard_->close();
}

}  // namespace seedrl
