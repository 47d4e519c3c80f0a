// An optimizer's state in a checkpoint: its type, each parameter group's
// learning rate, and for each parameter, in the order of the optimizer's
// parameter groups, either null (no update yet) or its step count and state
// tensors (Adam: exp_avg, exp_avg_sq, max_exp_avg_sq; RMSprop: square_avg,
// momentum_buffer, grad_avg; those the options use). Keyed by order, not by
// LibTorch's state key (a TensorImpl address, which means nothing in another
// process, and whose type differs between LibTorch 1.x and 2.x).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <torch/optim/optimizer.h>
#include <nlohmann/json.hpp>

#include "seedrl/io/checkpoint_tensors.h"

namespace seedrl {

struct SavedParamState {
  std::int64_t step = 0;
  std::vector<CheckpointTensor> tensors;
};

struct SavedOptimizerState {
  std::string type;                    // adam | rmsprop
  std::vector<double> learning_rates;  // one per parameter group
  std::vector<std::optional<SavedParamState>> params;
};

// The index entry of `optimizer`'s state; its tensors go to `writer`.
// Throws CheckpointError for an optimizer other than Adam or RMSprop.
nlohmann::json write_optimizer_state(const torch::optim::Optimizer& optimizer, CheckpointTensorWriter& writer);

// Reads the entry written above, checking its structure (not yet against an optimizer).
SavedOptimizerState read_optimizer_state(const nlohmann::json& j, CheckpointIndexReader& reader);

// Checks `saved` against `optimizer` (type, parameter count, which tensors
// its options use, shapes and dtypes), then replaces the optimizer's state;
// on any mismatch it throws and leaves the optimizer as it was.
void restore_optimizer_state(const SavedOptimizerState& saved, const CheckpointIndexReader& reader,
                             torch::optim::Optimizer& optimizer);

}  // namespace seedrl
