// Writes TensorBoard scalar summaries as a TFRecord event file, with the
// protobuf messages encoded by hand (no TensorFlow or protobuf dependency).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "seedrl/io/output_file.h"

namespace seedrl {

// One event file, `<logdir>/events.out.tfevents.<unix seconds>.<hostname>`,
// created (with logdir, if missing) by the constructor, which also writes the
// leading `file_version: "brain.Event:2"` record TensorBoard expects.
// Thread-safe: calls are serialized by an internal mutex.
class TensorBoardWriter {
 public:
  // Throws std::runtime_error naming the path if logdir or the file cannot be
  // created or written.
  explicit TensorBoardWriter(const std::string& logdir);
  // Writes what is still buffered; a failure here is lost (call close()).
  ~TensorBoardWriter();
  TensorBoardWriter(const TensorBoardWriter&) = delete;
  TensorBoardWriter& operator=(const TensorBoardWriter&) = delete;

  // Appends an Event{wall_time, step, summary{value{tag, simple_value}}} to
  // the buffer. simple_value is a float in the schema, so `value` is rounded
  // to float.
  void add_scalar(const std::string& tag, double value, std::int64_t step, double wall_time_seconds);
  // Hands buffered records to the OS so a running TensorBoard sees them.
  // Throws std::system_error naming the file and the reason if that fails.
  void flush();
  // Flushes, syncs and closes the file; throws like flush.
  void close();

  const std::string& path() const { return path_; }

 private:
  void write_record(const std::string& payload);  // caller holds mu_
  void flush_locked();

  std::mutex mu_;
  std::string path_;
  std::unique_ptr<OutputFile> out_;
  std::string pending_;                  // records not yet handed to the OS
  std::string event_, summary_, value_;  // encode buffers, reused across calls
};

}  // namespace seedrl
