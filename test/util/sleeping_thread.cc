#include "sleeping_thread.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "wait_until.h"

namespace seedrl::test {

int current_tid() { return static_cast<int>(::syscall(SYS_gettid)); }

const void* futex_word_of(int tid) {
  const std::string path = "/proc/self/task/" + std::to_string(tid) + "/syscall";
  std::ifstream in(path);
  if (!in) {
    if (!std::filesystem::exists(std::filesystem::path(path).parent_path())) return nullptr;  // it has ended
    throw std::runtime_error("cannot read " + path);
  }
  // "<nr> <arg1> <arg2> ... <sp> <pc>" while blocked in a system call,
  // "running" while running, "-1 <sp> <pc>" while blocked outside one.
  std::string nr, word;
  in >> nr;
  if (nr != std::to_string(SYS_futex) || !(in >> word)) return nullptr;
  return reinterpret_cast<const void*>(static_cast<std::uintptr_t>(std::stoull(word, nullptr, 16)));
}

std::vector<int> ThreadIds::all() const {
  std::vector<int> out;
  wait_until([&] {
    out.clear();
    for (const auto& id : ids_)
      if (id.load() != 0) out.push_back(id.load());
    return out.size() == ids_.size();
  });
  return out;
}

bool wait_until_sleeping_on(const std::vector<int>& tids, const void* word, std::chrono::seconds timeout) {
  return wait_until(
      [&] {
        for (int tid : tids)
          if (futex_word_of(tid) != word) return false;
        return true;
      },
      timeout);
}

}  // namespace seedrl::test
