#include "seedrl/trajectory/batch_prefetcher.h"

#include <chrono>
#include <utility>

#include "seedrl/util/clock.h"

namespace seedrl {

BatchPrefetcher::BatchPrefetcher(TrajectoryStore& store, int batch_size, int depth)
    : store_(store), batch_size_(batch_size), ready_(static_cast<std::size_t>(depth)), thread_([this] { run(); }) {}

BatchPrefetcher::~BatchPrefetcher() {
  stop_.store(true);
  ready_.close();  // wakes the thread if it waits to hand a batch over
  thread_.join();
}

void BatchPrefetcher::run() {
  try {
    UnrollBatch batch;
    while (store_.next_batch(batch_size_, batch, &stop_)) {
      if (!ready_.push(std::move(batch))) return;
      batch = UnrollBatch{};
    }
  } catch (...) {
    // Gathering failed (page-locked memory could not be had, say): the
    // learner's next() rethrows it, which ends the run with its message;
    // left here it would end the process.
    error_ = std::current_exception();
  }
  ready_.close();  // the store closed, or the error above: next() returns false or throws
}

bool BatchPrefetcher::next(UnrollBatch& out) {
  const auto t0 = std::chrono::steady_clock::now();
  auto batch = ready_.pop();
  wait_ns_.fetch_add(ns_since(t0), std::memory_order_relaxed);
  if (!batch) {
    if (error_) std::rethrow_exception(error_);  // written before the close that ended pop()
    return false;
  }
  out = std::move(*batch);
  return true;
}

}  // namespace seedrl
