// One inference device's server as the InferenceFleet sees it (the
// InferenceServer, whichever algorithm's PolicyStep it runs): started,
// stopped and counted the same way.
#pragma once

#include <atomic>
#include <cstdint>

namespace seedrl {

struct InferenceStats {
  std::atomic<std::uint64_t> batches{0}, rows{0}, forward_ns{0}, record_ns{0};
  std::atomic<std::uint64_t> graph_batches{0};  // forwards replayed as CUDA graphs
};

class DeviceInference {
 public:
  virtual ~DeviceInference() = default;
  virtual void start() = 0;
  // Closes the batcher and joins the threads.
  virtual void stop() = 0;
  // Forgets a slot's per-env state (its remote actor went away).
  virtual void reset_slot(int slot) = 0;
  // Returns once every step of the slot that was answered is recorded, so
  // that its partial unroll can be dropped (its actor went away).
  virtual void settle_slot(int slot) = 0;
  virtual const InferenceStats& stats() const = 0;
  // An inference thread failed (and said why): the run must stop.
  virtual bool failed() const = 0;
  // Replay CUDA graphs of the forward for batch sizes that recur
  // (util/cuda_graphs.h); set before start(). No effect on CPU.
  void use_cuda_graphs(bool on) { cuda_graphs_ = on; }
  // Answer a batch's actors before recording it (the default: they step while
  // it is recorded), or only after; set before start().
  void answer_first(bool on) { answer_first_ = on; }

 protected:
  bool cuda_graphs_ = false;
  bool answer_first_ = true;
};

}  // namespace seedrl
