// Gathers EnvSteps from many actor threads into preallocated batches. An actor
// claims rows under a short lock and copies its observations into them outside
// the lock (the one copy on the way to the accelerator); an inference thread
// takes a batch when it is full or when the timeout since its first row has
// passed, so a partial batch never stalls the run. Actors sleep on a futex
// (std::atomic::wait) until every one of their steps has its action.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include <torch/types.h>

#include "seedrl/env/spec.h"
#include "seedrl/inference/env_step.h"
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
  // throughput) no wake-up, and a yielding actor hands its core to other
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
      if (spin < 12) cpu_relax(); else std::this_thread::yield();
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
};

struct InferenceBatch {
  torch::Tensor obs;    // [capacity, ...obs shape], host memory (pinned on CUDA)
  torch::Tensor first;  // [capacity] uint8
  torch::Tensor slots;  // [capacity] int64
  std::vector<const EnvStep*> steps;
  std::vector<Completion*> completions;
  int size = 0;  // rows claimed; rows [0, size) are valid once taken
  // internal
  // Rows whose observation is copied in; kWaiting: an inference thread
  // sleeps on it for the last ones.
  static constexpr std::uint32_t kWaiting = 0x80000000u;
  std::atomic<std::uint32_t> written{0};
  // A generation bumped once every row is answered (Completion::kGeneration),
  // plus Completion::kAnswerSleepers while actors sleep on it.
  std::atomic<std::uint32_t> answered{0};
  // Guarded by the batcher's lock. Filling: open or ready, not yet taken by
  // an inference thread; Running: taken, complete() will answer its rows.
  enum class State : std::uint8_t { kFree, kFilling, kRunning } state = State::kFree;
  std::chrono::steady_clock::time_point opened;
  std::uint8_t* obs_ptr = nullptr;
  std::int64_t* slots_ptr = nullptr;
  std::uint8_t* first_ptr = nullptr;
  std::size_t row_bytes = 0;
};

class RequestBatcher {
 public:
  RequestBatcher(const ArraySpec& observation, int batch_size, std::chrono::microseconds timeout,
                 int num_buffers, bool pin_memory);

  // Buffers enough for every env to have a request in flight at once, plus
  // one being run by each inference thread and one filling.
  static int buffers_needed(int num_envs, int batch_size, int inference_threads) {
    return (num_envs + batch_size - 1) / batch_size + inference_threads + 1;
  }
  ~RequestBatcher();

  // Actor side: blocks until every step has its action written. Returns false
  // if the batcher was closed (the actions are then unspecified).
  bool submit(std::span<EnvStep> steps, Completion& completion);
  // Same without waiting: completion.on_done runs once every step has its
  // action, or once the batcher closed (completion.closed() then). For the
  // remote actors' sessions, so that no thread sleeps per connection. May
  // block while every buffer is in use (back-pressure).
  void submit_async(std::span<EnvStep> steps, Completion& completion);

  // Inference side: the next batch to run, or nullptr once closed.
  InferenceBatch* next_batch();
  // Inference side: actions are written; wake the actors and recycle the buffer.
  void complete(InferenceBatch* batch);

  // Wakes every waiter; later submits and next_batch calls return at once.
  void close();

  // Environments that submit come and go (remote actors connect and leave),
  // and a batch waiting for rows no environment will send only ends on the
  // timeout. Once told how many are live, the batcher seals the open batch at
  // min(batch size, live) rows, or with `half_of_live` at half the live
  // environments (at least one), so that one batch fills while another runs.
  // Until then every batch is sealed at the batch size.
  void track_live_envs(int live, bool half_of_live);
  void add_live_envs(int delta);
  // Rows at which the open batch is sealed now.
  int fill_target() const;
  // Rows claimed in the batch now filling (0 when none is): lets a test know
  // that its actors have reached the batch.
  int open_rows() const;

  int batch_size() const { return batch_size_; }
  // Counters for the bench and metrics.
  std::uint64_t batches() const { return batches_.load(std::memory_order_relaxed); }
  std::uint64_t timeouts() const { return timeouts_.load(std::memory_order_relaxed); }
  std::uint64_t rows() const { return rows_.load(std::memory_order_relaxed); }
  // Summed over batches: time from a batch's first row until an inference
  // thread took it (batch fill).
  std::uint64_t fill_ns() const { return fill_ns_.load(std::memory_order_relaxed); }
  // Summed over inference threads: time spent in next_batch() waiting for a batch.
  std::uint64_t idle_ns() const { return idle_ns_.load(std::memory_order_relaxed); }

 private:
  void wait_for_rows(InferenceBatch* b);  // until every claimed row is copied in
  // Claims a row per step and copies its observation; false if the batcher
  // closed on the way (the unclaimed rows are then counted off here, and
  // `finished` says whether that was the last of them).
  bool claim_rows(std::span<EnvStep> steps, Completion& completion, bool& finished);
  InferenceBatch* open_batch_locked(std::unique_lock<std::mutex>& lock);
  void seal_locked();  // moves the open batch to the ready list
  void retarget_locked();


  const int batch_size_;
  const std::chrono::microseconds timeout_;
  std::vector<std::unique_ptr<InferenceBatch>> buffers_;
  mutable std::mutex mu_;
  std::condition_variable ready_cv_, free_cv_;
  std::vector<InferenceBatch*> free_;
  // Sealed batches in order, a ring sized to every buffer: a std::deque
  // would allocate a chunk every few dozen batches.
  std::vector<InferenceBatch*> ready_;
  std::size_t ready_head_ = 0, ready_count_ = 0;
  InferenceBatch* open_ = nullptr;
  bool closed_ = false;
  bool tracking_live_ = false, half_of_live_ = false;
  int live_envs_ = 0;
  int fill_target_;  // guarded by mu_
  std::atomic<std::uint64_t> batches_{0}, timeouts_{0}, rows_{0}, fill_ns_{0}, idle_ns_{0};
};

}  // namespace seedrl
