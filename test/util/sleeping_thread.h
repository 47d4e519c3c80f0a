// Whether another thread of this process is asleep in a futex wait, and on
// which word: how a test knows that a thread has reached its blocking point
// (a sleep "long enough for it to get there" is not, on a loaded machine).
#pragma once

#include <atomic>
#include <chrono>
#include <vector>

namespace seedrl::test {

// The kernel's id of the calling thread.
int current_tid();

// The word thread `tid` of this process sleeps on in a futex wait, or nullptr
// while it runs or blocks elsewhere. Read from /proc/self/task/<tid>/syscall,
// which names a thread's system call and its arguments only while the thread
// is not running; throws if that file cannot be read.
const void* futex_word_of(int tid);

// Ids that threads record as they start, for a test to read once all have.
class ThreadIds {
 public:
  explicit ThreadIds(int n) : ids_(static_cast<std::size_t>(n)) {}
  // Called by thread i.
  void record(int i) { ids_[static_cast<std::size_t>(i)].store(current_tid()); }
  // Every thread's id, once each has recorded it.
  std::vector<int> all() const;

 private:
  std::vector<std::atomic<int>> ids_;
};

// Waits until every thread in `tids` sleeps on `word`, for at most `timeout`;
// returns whether they all do.
bool wait_until_sleeping_on(const std::vector<int>& tids, const void* word,
                            std::chrono::seconds timeout = std::chrono::seconds(120));

}  // namespace seedrl::test
