// How an actor waits for the actions of the steps it submitted to a
// RequestBatcher. Plain atomics and futexes, no torch: actors never see a
// model.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>

#include "seedrl/util/futex.h"

namespace seedrl {

// Counts an actor's outstanding steps; the actor sleeps until it reaches 0.
// When the batcher closes, rows that no inference thread has taken are
// counted off with the kClosed bit set; rows being run are still answered, so
// an actor never leaves while inference may touch its EnvSteps.
struct Completion {
  static constexpr std::uint32_t kClosed = 0x80000000u;
  static constexpr std::uint32_t kSleeping = 0x40000000u;  // the submitting actor sleeps on `pending`
  static constexpr std::uint32_t kCount = 0x3FFFFFFFu;     // rows not yet answered
  std::atomic<std::uint32_t> pending{0};
  // For submit_async(): called by whichever thread counts off the last row,
  // instead of a wake-up. It may run under the batcher's lock (close()), so it
  // must not call back into the batcher.
  std::function<void()> on_done;
  // Counts one row off; wakes the actor (or calls on_done) on the last one.
  void count_off() {
    const std::uint32_t before = pending.fetch_sub(1, std::memory_order_acq_rel);
    if ((before & kCount) == 1) done(before);
  }
  // `before`: the value of `pending` before its count reached 0.
  void done(std::uint32_t before) {
    if (on_done)
      on_done();
    else if (before & kSleeping)  // a system call only when the actor really sleeps
      futex_wake_one(pending);
  }
  // Sleeps until every row is counted off; false if the batcher was closed.
  // First it spins briefly and yields a few times: an actor that is not yet
  // asleep when its answer comes costs the inference thread (which bounds
  // throughput) no wake-up, and a yielding actor hands its CPU to other
  // runnable threads (at its lowered priority, to the inference and learner
  // threads first). Measured on 2 cores, fewer or no yields were slower with
  // 32 actors and more were slower with 4096. Then it sleeps on its last
  // row's batch, so that one system call wakes a whole batch's actors; only
  // if an earlier batch of its rows is still unanswered (several inference
  // threads) does it sleep on `pending` and cost a wake-up of its own.
  bool wait() {
    for (int spin = 0; spin < 16; ++spin) {
      const std::uint32_t p = pending.load(std::memory_order_acquire);
      if ((p & kCount) == 0) return !(p & kClosed);
      if (spin < 12 || !yields)
        cpu_relax();
      else
        std::this_thread::yield();
    }
    if (batch_answered) {
      // Until the batch's generation moves on (all of its rows answered) or
      // this actor's rows are all answered anyway.
      futex_sleep_until(*batch_answered, kAnswerSleepers, [this](std::uint32_t v) {
        return (v & kGeneration) != batch_generation || (pending.load(std::memory_order_acquire) & kCount) == 0;
      });
    }
    const std::uint32_t p = futex_sleep_until(pending, kSleeping, [](std::uint32_t v) { return (v & kCount) == 0; });
    return !(p & kClosed);
  }

  // Set when a row is claimed: the answer word of the batch holding this
  // actor's last row (InferenceBatch::answered) and its generation then.
  std::atomic<std::uint32_t>* batch_answered = nullptr;
  std::uint32_t batch_generation = 0;
  static constexpr std::uint32_t kAnswerSleepers = 0x80000000u;  // in InferenceBatch::answered
  static constexpr std::uint32_t kGeneration = 0x7FFFFFFFu;

  bool closed() const { return pending.load(std::memory_order_acquire) & kClosed; }

  // Whether wait()'s spin ends in yields. They pay when other actors wait
  // for the core. With no more actor threads than hardware threads none
  // does: a yield hands the core to a thread that keeps it for a whole time
  // slice (a learner spinning between its phases), and an answer that comes
  // meanwhile waits for that slice's end, where a sleeping actor would be
  // woken at once. ActorPool decides (actors_yield).
  bool yields = true;
};

}  // namespace seedrl
