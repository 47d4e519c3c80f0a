// Settings of a data-parallel learner (V-trace's or R2D2's).
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

namespace seedrl {

struct DataParallelOptions {
  int checksum_every = 100;                   // updates between replica checksums (0: never)
  std::int64_t bucket_bytes = 1 << 20;        // gradient bucket size
  std::chrono::milliseconds timeout{120000};  // a collective that takes longer fails the run
  // Gather the next batch on a thread of its own during the update (V-trace).
  // Auto: when a learner device is a GPU, whose update is short beside the
  // gather of a large batch (see bench/RESULTS.md, "Micro-benchmarks",
  // BM_TrajectoryGather); on CPU the update dwarfs it, and the extra thread
  // only competes for the CPUs.
  enum class Prefetch { kAuto, kAlways, kNever } prefetch = Prefetch::kAuto;
  // CPUs each replica's thread keeps to (see trainer/learner_cpus.h); rank 0
  // is the caller's thread, which places itself. Empty: no restriction.
  std::vector<std::vector<int>> learner_cpus;
  // Clip and step with DeviceOptimizerStep, whose update never waits for the
  // device, instead of LibTorch's clip_grad_norm_ and step(). Auto: on CUDA
  // replicas (on CPU both are the same arithmetic; tests force it there).
  enum class DeviceStep { kAuto, kAlways, kNever } device_step = DeviceStep::kAuto;
  bool use_device_step(bool cuda) const {
    return device_step == DeviceStep::kAlways || (device_step == DeviceStep::kAuto && cuda);
  }
  // --cuda-graphs: a single CUDA learner's update (forward, backward, clip,
  // optimizer step) is captured once as a CUDA graph and replayed for every
  // later batch (util/cuda_graphs.h). Not with several replicas (their
  // all-reduce runs between backward and step) or --normalize-obs.
  bool cuda_graphs = false;
};

}  // namespace seedrl
