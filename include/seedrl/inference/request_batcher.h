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

#include "seedrl/actor/action_source.h"
#include "seedrl/actor/completion.h"
#include "seedrl/env/env_step.h"
#include "seedrl/env/spec.h"

namespace seedrl {

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

class RequestBatcher final : public ActionSource {
 public:
  RequestBatcher(const ArraySpec& observation, int batch_size, std::chrono::microseconds timeout, int num_buffers,
                 bool pin_memory);

  // Buffers enough for every env to have a request in flight at once, plus
  // one being run by each inference thread and one filling.
  static int buffers_needed(int num_envs, int batch_size, int inference_threads) {
    return (num_envs + batch_size - 1) / batch_size + inference_threads + 1;
  }
  ~RequestBatcher();

  // Actor side: blocks until every step has its action written. Returns false
  // if the batcher was closed (the actions are then unspecified).
  bool submit(std::span<EnvStep> steps, Completion& completion) override;
  // Same without waiting: completion.on_done runs once every step has its
  // action, or once the batcher closed (completion.closed() then). For the
  // remote actors' sessions, so that no thread sleeps per connection. May
  // block while every buffer is in use (back-pressure).
  void submit_async(std::span<EnvStep> steps, Completion& completion);

  // Inference side: the next batch to run, or nullptr once closed.
  InferenceBatch* next_batch();
  // Inference side: actions are written; wake the actors and recycle the buffer.
  void complete(InferenceBatch* batch) {
    answer(batch);
    release(batch);
  }
  // complete() in two halves, for an inference thread that records the batch
  // after its actors have their actions: answer() wakes the actors (their
  // EnvSteps are theirs again, so read nothing from them after it); the
  // batch's own rows (observations, slots) stay valid until release().
  void answer(InferenceBatch* batch);
  void release(InferenceBatch* batch);
  // A batch next_batch() handed out that will not be answered (its inference
  // thread failed): its rows are counted off as closed, as close() does for
  // batches no thread took, so that no actor or remote session waits on it.
  void abandon(InferenceBatch* batch);

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
