#include "seedrl/io/metrics_writer.h"

#include <cmath>
#include <filesystem>
#include <system_error>

#include <nlohmann/json.hpp>

namespace seedrl {

namespace {
nlohmann::json to_json(const Scalars& s) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : s) {
    // Counters print as integers; NaN/inf are not JSON.
    if (!std::isfinite(v)) j[k] = nullptr;
    else if (v == std::floor(v) && std::abs(v) < 9e15) j[k] = static_cast<std::int64_t>(v);
    else j[k] = v;
  }
  return j;
}

std::string jsonl_path(const std::string& logdir) {
  std::filesystem::create_directories(logdir);
  return (std::filesystem::path(logdir) / "metrics.jsonl").string();
}
}  // namespace

MetricsWriter::MetricsWriter(const std::string& logdir)
    : logdir_(logdir),
      jsonl_(jsonl_path(logdir), OutputFile::Mode::kAppend),
      tensorboard_(std::make_unique<TensorBoardWriter>(logdir)) {}

void MetricsWriter::write(const Scalars& scalars, double wall_time_seconds) {
  jsonl_.write(to_json(scalars).dump() + '\n');
  const auto step = static_cast<std::int64_t>(scalars.at("frames"));
  for (const auto& [k, v] : scalars) {
    if (k != "frames" && std::isfinite(v)) tensorboard_->add_scalar(k, v, step, wall_time_seconds);
  }
  tensorboard_->flush();
}

void MetricsWriter::write_summary(const Scalars& scalars) {
  const auto path = std::filesystem::path(logdir_) / "summary.json";
  const std::string tmp = path.string() + ".tmp";
  try {
    OutputFile out(tmp, OutputFile::Mode::kTruncate);
    out.write(to_json(scalars).dump(2) + '\n');
    out.sync();
    out.close();
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw std::system_error(ec, "cannot replace " + path.string() + " with " + tmp);
}

void MetricsWriter::close() {
  jsonl_.sync();
  jsonl_.close();
  tensorboard_->close();
}

}  // namespace seedrl
