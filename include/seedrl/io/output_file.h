// A file written through its descriptor, so that every failed write, sync or
// close is reported with the file's path and the system's reason ("cannot
// write /run/metrics.jsonl: No space left on device"). A stream would keep
// the reason to itself, or drop the failure altogether.
#pragma once

#include <string>
#include <string_view>

namespace seedrl {

class OutputFile {
 public:
  // kAppend: a file that does not end in '\n' (a torn last line) gets one
  // first, so that what is appended starts a line of its own.
  enum class Mode { kAppend, kTruncate };

  // Creates the file if missing. Throws std::system_error naming the path.
  OutputFile(std::string path, Mode mode);
  // Closes the file; a failure here is lost (call close() to see it).
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Hands every byte to the kernel, or throws std::system_error naming the path.
  void write(std::string_view bytes);
  // fsync: the bytes are on the disk (a regular file only; a pipe or a device
  // has nothing to sync). Throws std::system_error naming the path.
  void sync();
  // Closes now; throws std::system_error naming the path. Later calls do nothing.
  void close();

  const std::string& path() const { return path_; }

 private:
  [[noreturn]] void fail(const char* what, int error) const;
  void end_last_line();

  std::string path_;
  int fd_ = -1;
};

}  // namespace seedrl
