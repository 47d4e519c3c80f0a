// The central recurrent-state table of SEED RL: every env slot's LSTM state
// lives here, beside the model, not in its actor. Inference gathers the rows
// of a batch (zeroed where a step begins an episode) and scatters the new
// ones back; rows of different batches never overlap, but the table is shared
// by every inference thread, so access is serialised.
#pragma once

#include <mutex>

#include "seedrl/model/agent_net.h"

namespace seedrl {

class CoreStateTable {
 public:
  // Disabled (every call a no-op, gather() undefined) for models without a core.
  CoreStateTable() = default;
  // `initial` is [num_slots, H] on the inference device.
  explicit CoreStateTable(CoreState initial) { enable(std::move(initial)); }
  // Same, on a default-constructed table before any thread uses it.
  void enable(CoreState initial) {
    h_ = std::move(initial.h);
    c_ = std::move(initial.c);
  }

  bool enabled() const { return h_.defined(); }
  // Rows `slots` ([n] int64 on the device); `first` ([n] bool) zeroes rows.
  CoreState gather(const torch::Tensor& slots, const torch::Tensor& first);
  void scatter(const torch::Tensor& slots, const CoreState& state);
  // scatter(slots, after), returning `before` (what gather gave) on the host,
  // contiguous: the trajectory records the state each step started from.
  // Undefined when disabled.
  CoreState step(const torch::Tensor& slots, const CoreState& before, const CoreState& after);
  // Zeroes one slot (its actor went away).
  void reset(int slot);

 private:
  std::mutex mu_;
  torch::Tensor h_, c_;
};

}  // namespace seedrl
