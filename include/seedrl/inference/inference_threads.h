// The threads of an inference server: each runs one loop over the batches of
// a RequestBatcher until it closes. stop() closes the batcher (waking every
// thread) and joins them. A loop that throws logs why and closes the batcher,
// so actors and the trainer see the end instead of a hang.
#pragma once

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

 private:
  RequestBatcher& batcher_;
  std::vector<std::thread> threads_;
};

}  // namespace seedrl
