// Keeps random ops on CUDA tensors out of other threads' CUDA graph captures.
// While any thread captures a graph, LibTorch 2.x marks the device's default
// RNG generator as capturing, and a random op launched meanwhile by another
// thread (an inference thread sampling actions) fails with "Offset increment
// outside graph capture encountered unexpectedly". Random ops on CUDA tensors
// launch under a shared lock; captures hold it exclusively. Captures are rare
// (a few per thread per run), so sampling almost never waits.
#pragma once

#include <mutex>
#include <shared_mutex>

#include <torch/types.h>

namespace seedrl {

// Held around the launch of a random op on `like`'s device: a shared lock for
// a CUDA tensor, an empty one (no locking) otherwise.
std::shared_lock<std::shared_mutex> lock_cuda_rng(const torch::Tensor& like);

// Held for the whole of a CUDA graph capture.
std::unique_lock<std::shared_mutex> lock_cuda_rng_for_capture();

}  // namespace seedrl
