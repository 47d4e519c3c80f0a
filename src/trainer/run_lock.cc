#include "seedrl/trainer/run_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <spdlog/spdlog.h>

namespace seedrl {

namespace {

// The holder's pid as it wrote it, or "" if the file holds none (yet).
std::string holder_pid(int fd) {
  char buf[32] = {};
  const ssize_t n = ::pread(fd, buf, sizeof(buf) - 1, 0);
  if (n <= 0) return "";
  std::string pid(buf, static_cast<size_t>(n));
  while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
  for (const char c : pid)
    if (c < '0' || c > '9') return "";
  return pid;
}

}  // namespace

std::string RunLock::path(const std::string& logdir) {
  return (std::filesystem::path(logdir) / ".seedrl.lock").string();
}

RunLock::RunLock(const std::string& logdir) {
  const std::string file = path(logdir);
  fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    const int error = errno;
    throw std::invalid_argument("--logdir: cannot open " + file + " (" + std::strerror(error) + ")");
  }
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    if (error == EWOULDBLOCK) {
      const std::string pid = holder_pid(fd_);
      ::close(fd_);
      fd_ = -1;
      throw std::invalid_argument("--logdir: " + logdir + " is in use by another seedrl train" +
                                  (pid.empty() ? "" : " (pid " + pid + ")") +
                                  "; wait for it to end or choose another --logdir");
    }
    spdlog::warn("--logdir: cannot lock {} ({}); nothing stops a second run from using {} at the same time", file,
                 std::strerror(error), logdir);
    return;
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  // Best effort: the pid only makes a second run's refusal more helpful.
  const bool written = ::ftruncate(fd_, 0) == 0 && ::pwrite(fd_, pid.data(), pid.size(), 0) > 0;
  (void)written;
}

RunLock::~RunLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace seedrl
