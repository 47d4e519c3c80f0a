// The threads of an inference server: each runs one loop over the batches of
// a RequestBatcher until it closes. stop() closes the batcher (waking every
// thread) and joins them. A loop that throws logs why and closes the batcher,
// so actors and the trainer see the end instead of a hang.
#pragma once

#include <atomic>

#include <functional>
#include <thread>
#include <vector>

#include "seedrl/inference/request_batcher.h"

namespace seedrl {

class InferenceThreads {
 public:
  explicit InferenceThreads(RequestBatcher& batcher) : batcher_(batcher) {}
  ~InferenceThreads() { stop(); }
  InferenceThreads(const InferenceThreads&) = delete;
  InferenceThreads& operator=(const InferenceThreads&) = delete;

  // Runs loop(i) on thread i of n.
  void start(int n, std::function<void(int)> loop);
  void stop();
  // A thread's loop threw: it logged why and closed the batcher.
  bool failed() const { return failed_.load(std::memory_order_relaxed); }

 private:
  RequestBatcher& batcher_;
  std::vector<std::thread> threads_;
  std::atomic<bool> failed_{false};
};

}  // namespace seedrl
