// Hands new weights from the learner to inference without stalling either:
// the learner snapshots its parameters outside any lock and swaps a pointer;
// an inference thread grabs the newest pointer between batches and copies
// from it into its own replica. The version counts learner updates. On CUDA
// both sides wait for their copies to finish (once per update), because
// inference runs on streams of its own (util/device_stream.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include <torch/nn/module.h>

namespace seedrl {

class ParamPublisher {
 public:
  // Learner: publishes a copy of `module`'s parameters and buffers as `version`.
  void publish(const torch::nn::Module& module, std::int64_t version);
  // Inference: copies the newest weights into `replica` if newer than `have`;
  // returns the version the replica now holds.
  std::int64_t sync(torch::nn::Module& replica, std::int64_t have);
  std::int64_t version() const { return version_.load(std::memory_order_acquire); }

 private:
  struct Snapshot {
    std::vector<torch::Tensor> tensors;
    std::int64_t version = 0;
  };
  std::mutex mu_;
  std::shared_ptr<const Snapshot> latest_;
  std::atomic<std::int64_t> version_{-1};
};

}  // namespace seedrl
