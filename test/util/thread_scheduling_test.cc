// Actor-thread scheduling: the calls that keep thousands of actor threads
// from starving inference and the learner do what they say, per thread.
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "seedrl/util/actor_thread_priority.h"
#include "seedrl/util/futex.h"
#include "seedrl/util/futex_hash.h"
#include "sleeping_thread.h"
#include "wait_until.h"

namespace {
int own_nice() { return getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid))); }
}  // namespace

TEST_CASE("an actor thread runs SCHED_BATCH at the lower priority, other threads are untouched", "[util][scheduling]") {
  const int main_nice = own_nice();
  int policy = -1, nice = -100, sibling_policy = -1, sibling_nice = -100;
  std::thread actor([&] {
    seedrl::lower_actor_thread_priority(7);
    policy = sched_getscheduler(0);
    nice = own_nice();
    std::thread sibling([&] {  // a thread the actor starts inherits its settings
      sibling_policy = sched_getscheduler(0);
      sibling_nice = own_nice();
    });
    sibling.join();
  });
  actor.join();
  CHECK(policy == SCHED_BATCH);
  CHECK(nice == std::min(19, main_nice + 7));
  CHECK(sibling_policy == SCHED_BATCH);
  CHECK(sibling_nice == nice);
  // The calling (main) thread keeps its own.
  CHECK(sched_getscheduler(0) == SCHED_OTHER);
  CHECK(own_nice() == main_nice);

  int zero_policy = -1, zero_nice = -100;
  std::thread unchanged([&] {
    seedrl::lower_actor_thread_priority(0);
    zero_policy = sched_getscheduler(0);
    zero_nice = own_nice();
  });
  unchanged.join();
  CHECK(zero_policy == SCHED_OTHER);
  CHECK(zero_nice == main_nice);
}

TEST_CASE("the private futex hash grows to two slots per sleeping thread", "[util][scheduling]") {
  constexpr int kPrFutexHash = 78, kGetSlots = 2;
  std::thread warm([] {});  // a second thread makes the kernel give the process its own hash
  warm.join();
  const int before = prctl(kPrFutexHash, kGetSlots, 0, 0, 0);
  if (before < 0) {
    WARN("this kernel has no PR_FUTEX_HASH (Linux < 6.16): its global futex hash is used");
    seedrl::reserve_futex_hash(4096);
    CHECK(prctl(kPrFutexHash, kGetSlots, 0, 0, 0) < 0);
    return;
  }
  seedrl::reserve_futex_hash(4096);
  const int after = prctl(kPrFutexHash, kGetSlots, 0, 0, 0);
  CHECK(after >= 8192);
  seedrl::reserve_futex_hash(100);  // never shrinks
  CHECK(prctl(kPrFutexHash, kGetSlots, 0, 0, 0) == after);
}

TEST_CASE("futex_wait sleeps until the word changes and futex_wake_one wakes it", "[util][scheduling]") {
  // 64 waiters on their own words, each woken exactly when its word changes.
  constexpr int kThreads = 64;
  std::vector<std::atomic<std::uint32_t>> words(kThreads);
  std::vector<std::atomic<int>> woke(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] {
      while (words[i].load() == 0) seedrl::futex_wait(words[i], 0);
      woke[i].store(1);
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  int early = 0;
  for (auto& w : woke) early += w.load();
  CHECK(early == 0);  // nobody returns while its word holds the expected value
  for (int i = 0; i < kThreads; ++i) {
    words[i].store(1);
    seedrl::futex_wake_one(words[i]);
  }
  for (auto& t : threads) t.join();
  int woken = 0;
  for (auto& w : woke) woken += w.load();
  CHECK(woken == kThreads);
}

TEST_CASE("futex_wake_all wakes every thread asleep on one word in one call", "[util][scheduling]") {
  // The batcher wakes a whole batch's actors this way.
  constexpr int kThreads = 32;
  std::atomic<std::uint32_t> word{0};
  std::atomic<int> woke{0};
  seedrl::test::ThreadIds ids(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] {
      ids.record(i);
      seedrl::futex_wait(word, 0);  // once: a second sleep would hide a missed wake-up
      woke.fetch_add(1);
    });
  // Every thread asleep in the kernel: a thread still on its way to sleep
  // when the call runs would miss it and sleep on (a false failure).
  CHECK(seedrl::test::wait_until_sleeping_on(ids.all(), &word));
  CHECK(woke.load() == 0);
  seedrl::futex_wake_all(word);
  CHECK(seedrl::test::wait_until([&] { return woke.load() == kThreads; }));
  while (woke.load() < kThreads) {  // release any left behind so the test ends
    seedrl::futex_wake_all(word);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  for (auto& t : threads) t.join();
}
