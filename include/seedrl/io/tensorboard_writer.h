// Writes TensorBoard scalar summaries as a TFRecord event file, with the
// protobuf messages encoded by hand (no TensorFlow or protobuf dependency).
#pragma once

#include <cstdint>
#include <fstream>
#include <mutex>
#include <string>

namespace seedrl {

// One event file, `<logdir>/events.out.tfevents.<unix seconds>.<hostname>`,
// created (with logdir, if missing) by the constructor, which also writes the
// leading `file_version: "brain.Event:2"` record TensorBoard expects.
// Thread-safe: calls are serialized by an internal mutex.
class TensorBoardWriter {
 public:
  // Throws std::runtime_error naming the path if logdir or the file cannot be
  // created.
  explicit TensorBoardWriter(const std::string& logdir);
  ~TensorBoardWriter();
  TensorBoardWriter(const TensorBoardWriter&) = delete;
  TensorBoardWriter& operator=(const TensorBoardWriter&) = delete;

  // Appends an Event{wall_time, step, summary{value{tag, simple_value}}}.
  // simple_value is a float in the schema, so `value` is rounded to float.
  // Throws std::runtime_error if the write fails.
  void add_scalar(const std::string& tag, double value, std::int64_t step,
                  double wall_time_seconds);
  // Pushes buffered records to the OS so a running TensorBoard sees them.
  void flush();

  const std::string& path() const { return path_; }

 private:
  void write_record(const std::string& payload);  // caller holds mu_

  std::mutex mu_;
  std::string path_;
  std::ofstream out_;
  std::string event_, summary_, value_;  // encode buffers, reused across calls
};

}  // namespace seedrl
