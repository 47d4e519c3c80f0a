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
  UnrollBatch batch;
  while (store_.next_batch(batch_size_, batch, &stop_)) {
    if (!ready_.push(std::move(batch))) return;
    batch = UnrollBatch{};
  }
  ready_.close();  // the store closed: next() returns false
}

bool BatchPrefetcher::next(UnrollBatch& out) {
  const auto t0 = std::chrono::steady_clock::now();
  auto batch = ready_.pop();
  wait_ns_.fetch_add(ns_since(t0), std::memory_order_relaxed);
  if (!batch) return false;
  out = std::move(*batch);
  return true;
}

}  // namespace seedrl
