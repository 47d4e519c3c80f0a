// Gathers the learner's next batch on a thread of its own while the learner
// updates on the current one, so that taking unrolls from the queue and
// gathering them into batch tensors (an index_select per field, into
// page-locked memory for a GPU learner) leaves the learner's critical path.
// Each batch is a set of fresh tensors, so the learner may hold one while the
// next is gathered. Holds at most `depth` gathered batches beyond the learner's.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <thread>

#include "seedrl/trajectory/trajectory_store.h"
#include "seedrl/util/bounded_queue.h"

namespace seedrl {

class BatchPrefetcher {
 public:
  // Starts the gathering thread; from now on it is the store's only
  // next_batch() caller.
  BatchPrefetcher(TrajectoryStore& store, int batch_size, int depth = 1);
  // Stops and joins the thread; the store stays open, and unrolls queued for
  // a batch the thread did not take stay queued.
  ~BatchPrefetcher();
  BatchPrefetcher(const BatchPrefetcher&) = delete;
  BatchPrefetcher& operator=(const BatchPrefetcher&) = delete;

  // Blocks for the next batch; false once the store is closed. Rethrows what
  // the gathering thread threw.
  bool next(UnrollBatch& out);
  // Time next() spent blocked: the learner waiting for data.
  std::uint64_t wait_ns() const { return wait_ns_.load(std::memory_order_relaxed); }

 private:
  void run();

  TrajectoryStore& store_;
  const int batch_size_;
  BoundedQueue<UnrollBatch> ready_;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> wait_ns_{0};
  std::exception_ptr error_;  // set by the thread before it closes ready_
  std::thread thread_;        // last: started once everything above exists
};

}  // namespace seedrl
