#include "seedrl/inference/inference_threads.h"

#include <exception>

#include <spdlog/spdlog.h>

namespace seedrl {

void InferenceThreads::start(int n, std::function<void(int)> loop) {
  for (int i = 0; i < n; ++i)
    threads_.emplace_back([this, i, loop] {
      try {
        loop(i);
      } catch (const std::exception& e) {
        spdlog::error("inference thread {} failed: {}", i, e.what());
        batcher_.close();
      }
    });
}

void InferenceThreads::stop() {
  batcher_.close();
  for (auto& t : threads_) t.join();
  threads_.clear();
}

}  // namespace seedrl
