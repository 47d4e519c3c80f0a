// CUDA graphs of the inference forward pass. Inference runs the same small
// network on batches whose shape recurs (every full batch has the batch size),
// and on a GPU a small network's forward is bound by launching its kernels one
// by one, not by running them. Once a batch size has recurred, its forward is
// captured into a CUDA graph on static input tensors and later batches of that
// size are copied into those inputs and replayed as one launch; other sizes
// (a batch flushed part-full on the timeout) run eagerly. Weights may change
// between batches as long as they change in place (ParamPublisher copies into
// the replica's tensors), since the graph reads the tensors it was captured on.
//
// On CPU, in a build without CUDA, or when disabled, run() is fn(inputs).
// Not thread-safe: one per inference thread.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include <torch/types.h>

namespace seedrl {

class ForwardGraphs {
 public:
  using Fn = std::function<std::vector<torch::Tensor>(const std::vector<torch::Tensor>&)>;

  // `capture_after`: eager runs of a size before it is captured (they also
  // warm up cuBLAS and cuDNN, which must not allocate during a capture);
  // `max_graphs`: sizes captured at most, each holding its own activations.
  ForwardGraphs(torch::Device device, bool enabled, int capture_after = 4, int max_graphs = 4);
  ~ForwardGraphs();
  ForwardGraphs(const ForwardGraphs&) = delete;
  ForwardGraphs& operator=(const ForwardGraphs&) = delete;

  // fn(inputs) on this thread's current stream, or a replay of its graph for
  // batches of `batch_size` rows. A replay's outputs are the graph's own
  // tensors: read them before the next call. Undefined inputs (no recurrent
  // state) are passed through as such. If a capture fails, a warning says
  // why and every later batch runs eagerly.
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
