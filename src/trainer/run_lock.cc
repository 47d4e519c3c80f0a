#include "seedrl/trainer/run_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <spdlog/spdlog.h>

namespace seedrl {

namespace {

// The pid holding a lock on `fd`'s file, from /proc/locks ("1: FLOCK
// ADVISORY WRITE PID MAJ:MIN:INODE 0 EOF", the device numbers in hex), or ""
// where it cannot tell.
std::string holder_pid(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return "";
  std::ifstream locks("/proc/locks");
  for (std::string line; std::getline(locks, line);) {
    std::istringstream words(line);
    std::string previous, word;
    while (words >> word) {
      unsigned maj = 0, min = 0;
      unsigned long long inode = 0;
      char tail = 0;
      if (std::sscanf(word.c_str(), "%x:%x:%llu%c", &maj, &min, &inode, &tail) == 3 && maj == major(st.st_dev) &&
          min == minor(st.st_dev) && inode == st.st_ino)
        return previous;
      previous = word;
    }
  }
  return "";
}

}  // namespace

std::string RunLock::path(const std::string& logdir) {
  return (std::filesystem::path(logdir) / ".seedrl.lock").string();
}

RunLock::RunLock(const std::string& logdir) {
  const std::string file = path(logdir);
  fd_ = ::open(file.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
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
  }
}

RunLock::~RunLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace seedrl
