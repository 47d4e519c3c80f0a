// Settings of a data-parallel learner (V-trace's or R2D2's).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "seedrl/learner/replica_group.h"

namespace seedrl {

// The run's own counters (frames acted, episodes ended) in a run of several
// learner processes: before every update the processes sum what each counted
// since the last one, and each adds the others' share to its counters, so
// that every process counts the whole run's frames and episodes.
class RunTally {
 public:
  virtual ~RunTally() = default;
  // This process's frames and episodes since the last call.
  virtual std::array<std::int64_t, 2> take_local() = 0;
  // The other processes' frames and episodes since the last exchange.
  virtual void add_others(std::array<std::int64_t, 2> others) = 0;
};

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
  // replicas, and for Adam on the CPU, where its step is one fused loop per
  // parameter (learner/fused_adam.h) instead of LibTorch's nine tensor ops
  // with their temporaries: the same arithmetic, a fraction of the time on a
  // small net (bench/RESULTS.md). CPU RMSprop keeps LibTorch's step.
  enum class DeviceStep { kAuto, kAlways, kNever } device_step = DeviceStep::kAuto;
  bool use_device_step(bool cuda, bool adam) const {
    return device_step == DeviceStep::kAlways || (device_step == DeviceStep::kAuto && (cuda || adam));
  }
  // --cuda-graphs: a single CUDA learner's update (forward, backward, clip,
  // optimizer step) is captured once as a CUDA graph and replayed for every
  // later batch (util/cuda_graphs.h). Not with several replicas (their
  // all-reduce runs between backward and step) or --normalize-obs.
  bool cuda_graphs = false;
  // Learner processes (V-trace): this process's replicas are ranks
  // first_rank.. of a group over several processes (and hosts). Before each
  // update the processes exchange one word: whether any is stopping (then
  // every one stops at the same update), their batches' valid transitions
  // (the loss's normalizer is the sum: the summed gradient is the gradient of
  // all processes' batches together) and frames, and the run's counters.
  std::optional<Rendezvous> rendezvous;
  RunTally* tally = nullptr;  // the run's counters (trainer/run_tally.h), or none
};

}  // namespace seedrl
