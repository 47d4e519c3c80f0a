// CUDA streams through c10's device-generic stream API, so that the CPU build
// compiles the same code with no CUDA header (every call is a no-op on CPU
// devices).
#pragma once

#include <optional>

#include <c10/core/StreamGuard.h>
#include <torch/types.h>

namespace seedrl {

// Makes a stream from LibTorch's pool current on this thread (and its device
// current) for the guard's lifetime, so that this thread's copies and kernels
// run beside other threads' work on the same GPU (inference beside the
// learner) instead of queueing behind it on the default stream. No-op on CPU.
class OwnStreamGuard {
 public:
  explicit OwnStreamGuard(torch::Device device, bool high_priority = false);

 private:
  std::optional<c10::StreamGuard> guard_;
};

// Waits for the work queued so far on this thread's current stream of
// `device`. No-op on CPU.
void synchronize_current_stream(torch::Device device);

}  // namespace seedrl
