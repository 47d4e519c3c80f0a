#include "seedrl/trainer/run_shutdown.h"

#include <exception>
#include <utility>

#include <spdlog/spdlog.h>

#include "seedrl/util/error_text.h"

namespace seedrl {

RunShutdown::RunShutdown(std::function<void()> stop_in_order) : stop_(std::move(stop_in_order)) {}

RunShutdown::~RunShutdown() {
  try {
    now();
  } catch (const std::exception& e) {
    // Already unwinding from the error that ended the run: a second
    // exception would terminate the process.
    spdlog::error("while stopping the run: {}", error_text(e));
  }
}

void RunShutdown::now() {
  if (done_) return;
  done_ = true;
  stop_();
}

}  // namespace seedrl
