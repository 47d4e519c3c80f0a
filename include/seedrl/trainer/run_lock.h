// One training run per --logdir at a time. Two runs on one directory would
// lose work: the second sets the first's files aside while the first keeps
// writing, and both then write checkpoint.pt. A run holds an exclusive
// flock(2) on logdir/.seedrl.lock from before it touches the directory until
// the process ends (the kernel drops it if the process dies), so a second
// run, --resume included, is refused naming the holder's pid. The file stays
// empty, so a run that does nothing (a finished --resume) changes no byte of
// the directory after the first. Scripts can ask the same question:
// `flock -n LOGDIR/.seedrl.lock true` fails while a run holds it.
#pragma once

#include <string>

namespace seedrl {

class RunLock {
 public:
  // `logdir` must exist. Throws std::invalid_argument naming --logdir when
  // another process holds the lock. A file system that cannot lock (ENOLCK
  // and the like) gets a warning and no lock.
  explicit RunLock(const std::string& logdir);
  ~RunLock();
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;

  static std::string path(const std::string& logdir);

 private:
  int fd_ = -1;
};

}  // namespace seedrl
