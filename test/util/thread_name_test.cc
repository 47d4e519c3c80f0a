// Thread names as Linux keeps them: readable back, and cut at 15 bytes.
#include <catch2/catch.hpp>

#include <sys/syscall.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>

#include "seedrl/util/thread_name.h"

namespace {
std::string proc_comm() {
  std::ifstream in("/proc/self/task/" + std::to_string(syscall(SYS_gettid)) + "/comm");
  std::string name;
  std::getline(in, name);
  return name;
}
}  // namespace

TEST_CASE("a thread's name reads back from the thread and from /proc, cut at 15 bytes", "[util][thread]") {
  std::string short_name, long_name, proc_short;
  std::thread([&] {
    seedrl::name_this_thread("inference 3");
    short_name = seedrl::this_thread_name();
    proc_short = proc_comm();
    seedrl::name_this_thread("remote actor 123456");
    long_name = seedrl::this_thread_name();
  }).join();
  CHECK(short_name == "inference 3");
  CHECK(proc_short == "inference 3");
  CHECK(long_name == "remote actor 12");
}
