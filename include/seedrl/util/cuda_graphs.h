// CUDA graphs of a fixed-shape step, one per recurring batch size. On a GPU a
// small network's work is bound by launching its kernels one by one, not by
// running them. Inference runs the same forward on batches whose size recurs
// (every full batch), and the learner runs the same update (forward,
// backward, optimizer step) on batches of one shape. Once a size has recurred,
// its step is captured into a CUDA graph on static input tensors, and later
// calls of that size are copied into those inputs and replayed as one launch;
// other sizes (a batch flushed part-full on the timeout) run eagerly. Tensors
// the step reads besides its inputs (weights, optimizer state, per-step
// numbers) may change between calls as long as they change in place, since
// the graph reads the tensors it was captured on.
//
// On CPU, in a build without CUDA, or when disabled, run() is fn(inputs).
// Not thread-safe: one per thread. The thread's current stream must not be
// the default stream (OwnStreamGuard), which CUDA cannot capture.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include <torch/types.h>

namespace seedrl {

class CudaGraphs {
 public:
  using Fn = std::function<std::vector<torch::Tensor>(const std::vector<torch::Tensor>&)>;

  // `capture_after`: eager runs of a size before it is captured (they also
  // warm up cuBLAS and cuDNN, which must not allocate during a capture);
  // `max_graphs`: sizes captured at most, each holding its own activations.
  CudaGraphs(torch::Device device, bool enabled, int capture_after = 4, int max_graphs = 4);
  ~CudaGraphs();
  CudaGraphs(const CudaGraphs&) = delete;
  CudaGraphs& operator=(const CudaGraphs&) = delete;

  // fn(inputs) on this thread's current stream, or a replay of its graph for
  // calls with this `batch_size`. Inputs to a replay may be on the host or
  // the device; those of the capture must be on the device. A replay's
  // outputs are the graph's own tensors: read them before the next call.
  // Undefined inputs (no recurrent state) are passed through as such. If a
  // capture fails, a warning says why and every later call runs eagerly.
  std::vector<torch::Tensor> run(int batch_size, const std::vector<torch::Tensor>& inputs, const Fn& fn);

  // Batch sizes captured so far.
  int captured() const;
  // Whether the last run() was a graph replay.
  bool replayed_last() const;
  // Whether this build can capture CUDA graphs at all.
  static bool supported();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace seedrl
