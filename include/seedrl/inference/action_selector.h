// How central inference turns a batch's network output into actions. V-trace
// samples from the policy distribution; R2D2 acts epsilon-greedily on
// Q-values with a per-environment epsilon. Called by several inference threads
// at once, each with distinct slots (an env is in one batch at a time).
#pragma once

#include <memory>

#include <torch/types.h>

#include "seedrl/env/spec.h"

namespace seedrl {

class ActionSelector {
 public:
  virtual ~ActionSelector() = default;
  // params [n, P] network output (any device); slots [n] int64 on the CPU.
  // Returns actions [n, action_width] float on the CPU, contiguous.
  virtual torch::Tensor select(const torch::Tensor& params, const torch::Tensor& slots) = 0;
};

// Samples from make_policy_distribution(action) (the V-trace behaviour).
std::unique_ptr<ActionSelector> make_sampling_selector(const ActionSpec& action);

}  // namespace seedrl
