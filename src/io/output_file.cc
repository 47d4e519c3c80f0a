#include "seedrl/io/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace seedrl {

OutputFile::OutputFile(std::string path, Mode mode) : path_(std::move(path)) {
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (mode == Mode::kAppend ? O_APPEND : O_TRUNC);
  do {
    fd_ = ::open(path_.c_str(), flags, 0644);
  } while (fd_ < 0 && errno == EINTR);
  if (fd_ < 0) fail("open", errno);
  if (mode == Mode::kAppend) end_last_line();
}

// A process killed while writing a line leaves it without its '\n': what is
// appended next starts on a line of its own rather than finishing that one
// into a line no reader can parse.
void OutputFile::end_last_line() {
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) return;
  const int in = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) return;
  char last = '\n';
  const bool read = ::pread(in, &last, 1, st.st_size - 1) == 1;
  ::close(in);
  if (read && last != '\n') write("\n");
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
}

void OutputFile::fail(const char* what, int error) const {
  throw std::system_error(error, std::generic_category(), std::string("cannot ") + what + " " + path_);
}

void OutputFile::write(std::string_view bytes) {
  if (fd_ < 0) fail("write", EBADF);
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("write", errno);
    }
    if (n == 0) fail("write", ENOSPC);  // no progress and no reason: a full device
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

void OutputFile::sync() {
  if (fd_ < 0) fail("sync", EBADF);
  struct stat st {};
  if (::fstat(fd_, &st) != 0) fail("sync", errno);
  if (!S_ISREG(st.st_mode)) return;
  if (::fsync(fd_) != 0) fail("sync", errno);
}

void OutputFile::close() {
  if (fd_ < 0) return;
  const int fd = fd_;
  fd_ = -1;
  // Not retried on EINTR: Linux has released the descriptor either way.
  if (::close(fd) != 0 && errno != EINTR) fail("close", errno);
}

}  // namespace seedrl
