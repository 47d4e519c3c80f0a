#include "seedrl/io/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "seedrl/io/file_kind.h"

namespace seedrl {

namespace {

[[noreturn]] void refuse(const std::string& what, const std::string& path, const std::string& why) {
  throw std::invalid_argument(what + " " + path + ": " + why);
}

const char* read_kind_of(mode_t mode) {
  const char* kind = special_file_kind(mode);
  return kind != nullptr ? kind : "not a regular file";
}

std::string size_text(std::size_t bytes) {
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

}  // namespace

int open_regular_file(const std::string& path, const std::string& what) {
  if (path.empty()) refuse(what, "\"\"", "empty path");
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) refuse(what, path, std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    refuse(what, path, std::strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    const std::string kind = read_kind_of(st.st_mode);
    refuse(what, path, kind.rfind("not", 0) == 0 ? kind : "is " + kind + ", not a regular file");
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

std::string read_regular_file(const std::string& path, const std::string& what, std::size_t max_bytes) {
  const int fd = open_regular_file(path, what);
  std::string out;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n < 0) {
      if (errno == EINTR) continue;
      const int e = errno;
      ::close(fd);
      refuse(what, path, std::strerror(e));
    }
    if (n == 0) break;
    if (out.size() + static_cast<std::size_t>(n) > max_bytes) {
      ::close(fd);
      refuse(what, path, "is larger than " + size_text(max_bytes));
    }
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return out;
}

}  // namespace seedrl
