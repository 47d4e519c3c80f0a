// One run per --logdir: a second lock on the same directory is refused
// naming the holder's pid, released when the holder ends; `flock(1)` sees
// the same lock, which is what bench scripts ask.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "../cli/run_binary.h"
#include "../util/refusal.h"
#include "seedrl/trainer/run_lock.h"

using namespace seedrl;
using namespace seedrl::test;

namespace {
// flock(1) in another process: 0 when it could take the lock, 1 when held.
int flock_exit(const std::string& file) {
  const int status = std::system(("flock -n '" + file + "' true").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
}  // namespace

TEST_CASE("a run's lock on its logdir refuses a second holder until released", "[trainer][logdir]") {
  const std::string dir = temp_dir("run_lock");
  auto first = std::make_unique<RunLock>(dir);
  CHECK(read_file(RunLock::path(dir)).empty());
  const std::string message = refusal([&] { RunLock second(dir); });
  CHECK(message == "--logdir: " + dir + " is in use by another seedrl train (pid " + std::to_string(::getpid()) +
                       "); wait for it to end or choose another --logdir");
  CHECK(flock_exit(RunLock::path(dir)) == 1);
  first.reset();
  CHECK(flock_exit(RunLock::path(dir)) == 0);
  RunLock again(dir);  // released with its holder
  CHECK(flock_exit(RunLock::path(dir)) == 1);
}

TEST_CASE("a lock in a directory that cannot hold the file is refused naming --logdir", "[trainer][logdir]") {
  const std::string dir = temp_dir("run_lock_missing");
  CHECK_THAT(refusal([&] { RunLock lock(dir + "/missing"); }),
             Catch::StartsWith("--logdir: cannot open " + dir + "/missing/.seedrl.lock"));
}
