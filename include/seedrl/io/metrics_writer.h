// Writes a run's scalars: one JSON object per log interval to metrics.jsonl,
// the same row to metrics.csv (for a spreadsheet or pandas), the same scalars
// to TensorBoard event files, and summary.json at the end. metrics.csv's
// columns are the first row's keys, "frames" first; a key that appears only
// later is in metrics.jsonl alone, and a missing or NaN value is an empty
// field.
// Every write is checked: a failure (a full disk) throws std::system_error
// naming the file and the reason. A NaN scalar means "no value yet" (no
// episode ended, no learner step): null in JSON, left out of TensorBoard.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "seedrl/io/output_file.h"
#include "seedrl/io/tensorboard_writer.h"

namespace seedrl {

using Scalars = std::map<std::string, double>;

class MetricsWriter {
 public:
  // Appends to an existing metrics.jsonl and metrics.csv (a resumed run
  // continues them, in the columns metrics.csv already has).
  explicit MetricsWriter(const std::string& logdir);

  // `scalars` must hold "frames"; it is the TensorBoard step.
  void write(const Scalars& scalars, double wall_time_seconds);
  // summary.json, replaced atomically (temporary file, fsync, rename): a
  // failed write leaves the previous one.
  void write_summary(const Scalars& scalars);
  // Syncs and closes metrics.jsonl and the event file, reporting failures.
  void close();

 private:
  std::string logdir_;
  OutputFile jsonl_;
  OutputFile csv_;
  std::vector<std::string> csv_columns_;  // empty until the header is known
  std::unique_ptr<TensorBoardWriter> tensorboard_;
};

}  // namespace seedrl
