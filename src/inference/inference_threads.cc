#include "seedrl/inference/inference_threads.h"
#include "seedrl/util/denormals.h"
#include "seedrl/util/error_text.h"
#include "seedrl/util/thread_name.h"

#include <exception>

#include <spdlog/spdlog.h>

namespace seedrl {

void InferenceThreads::start(int n, std::function<void(int)> loop) {
  for (int i = 0; i < n; ++i)
    threads_.emplace_back([this, i, loop] {
      name_this_thread("inference " + std::to_string(i));
      flush_denormals_on_this_thread();
      try {
        loop(i);
      } catch (const std::exception& e) {
        spdlog::error("inference thread {} failed: {}", i, error_text(e));
        failed_.store(true, std::memory_order_relaxed);
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
