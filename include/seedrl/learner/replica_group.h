// The collective-communication group of data-parallel learner replicas that
// are threads of this process: one c10d process group per rank, all meeting
// through one in-memory c10d::HashStore. CPU replicas talk through Gloo (over
// loopback TCP), CUDA replicas through NCCL where this LibTorch was built with
// it. Collectives are c10d's; this class only hides c10d's headers and the
// 1.13 / 2.x differences (ProcessGroup vs Backend) from the rest of the code.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <torch/types.h>

namespace seedrl {

class ReplicaGroup {
 public:
  // Builds every rank's process group, each on its own thread (c10d's
  // rendezvous blocks until all ranks have joined). Throws std::runtime_error
  // when the devices' backend is not available in this build.
  ReplicaGroup(const std::vector<torch::Device>& devices, std::chrono::milliseconds timeout);
  ~ReplicaGroup();
  ReplicaGroup(const ReplicaGroup&) = delete;
  ReplicaGroup& operator=(const ReplicaGroup&) = delete;

  int size() const;
  std::string backend() const;  // "gloo" | "nccl"

  // Collectives. Every rank calls the same ones in the same order, each from
  // its own thread; tensors live on the rank's device and are contiguous.
  using Wait = std::function<void()>;
  // In-place sum across ranks; returns a function that blocks until done.
  Wait allreduce_sum(int rank, torch::Tensor tensor);
  // In-place: every rank receives rank `root`'s values.
  void broadcast(int rank, torch::Tensor tensor, int root = 0);
  // Every rank's `tensor`, indexed by rank.
  std::vector<torch::Tensor> allgather(int rank, torch::Tensor tensor);

  // Whether this build can run replicas on `device`'s type.
  static bool supports(const torch::Device& device);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace seedrl
