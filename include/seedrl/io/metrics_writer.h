// Writes a run's scalars: one JSON object per log interval to metrics.jsonl,
// the same scalars to TensorBoard event files, and summary.json at the end.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "seedrl/io/tensorboard_writer.h"

namespace seedrl {

using Scalars = std::map<std::string, double>;

class MetricsWriter {
 public:
  // Appends to an existing metrics.jsonl (a resumed run continues it).
  explicit MetricsWriter(const std::string& logdir);

  // `scalars` must hold "frames"; it is the TensorBoard step.
  void write(const Scalars& scalars, double wall_time_seconds);
  void write_summary(const Scalars& scalars);

 private:
  std::string logdir_;
  std::ofstream jsonl_;
  std::unique_ptr<TensorBoardWriter> tensorboard_;
};

}  // namespace seedrl
