#include "seedrl/io/metrics_writer.h"

#include <cmath>
#include <filesystem>
#include <stdexcept>

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
}  // namespace

MetricsWriter::MetricsWriter(const std::string& logdir) : logdir_(logdir) {
  std::filesystem::create_directories(logdir);
  const auto path = std::filesystem::path(logdir) / "metrics.jsonl";
  jsonl_.open(path, std::ios::app);
  if (!jsonl_) throw std::runtime_error("cannot open " + path.string() + " for writing");
  tensorboard_ = std::make_unique<TensorBoardWriter>(logdir);
}

void MetricsWriter::write(const Scalars& scalars, double wall_time_seconds) {
  jsonl_ << to_json(scalars).dump() << '\n';
  jsonl_.flush();
  const auto step = static_cast<std::int64_t>(scalars.at("frames"));
  for (const auto& [k, v] : scalars) {
    if (k != "frames" && std::isfinite(v)) tensorboard_->add_scalar(k, v, step, wall_time_seconds);
  }
  tensorboard_->flush();
}

void MetricsWriter::write_summary(const Scalars& scalars) {
  const auto path = std::filesystem::path(logdir_) / "summary.json";
  const auto tmp = path.string() + ".tmp";
  std::ofstream out(tmp);
  out << to_json(scalars).dump(2) << '\n';
  out.close();  // the buffered text reaches the disk here: a full disk fails here, not before
  if (!out) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw std::runtime_error("cannot write " + tmp + " (disk full?)");
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace seedrl
