// The recurrent core both agents share (the V-trace AgentNet and R2D2's
// QNet): an LSTM cell stepped over time-major inputs, its state zeroed at
// every step that starts an episode. The nets register the cell themselves
// (as "lstm"), so parameter names and checkpoints do not depend on this file.
#pragma once

#include <cstdint>

#include <torch/nn/modules/rnn.h>
#include <torch/types.h>

namespace seedrl {

// LSTM state, each [B, H]; undefined tensors when the model has no core.
struct CoreState {
  torch::Tensor h, c;
  bool defined() const { return h.defined(); }
};

// Zero state for `batch` environments (float32, on `device`).
CoreState zero_core_state(std::int64_t batch, std::int64_t size, torch::Device device);

// x [T, B, F], first [T, B] (nonzero where an episode starts: the state
// entering that step is zeroed). Returns the outputs [T, B, H]; `state`
// becomes the state after the last step.
torch::Tensor unroll_lstm(torch::nn::LSTMCell& cell, const torch::Tensor& x, const torch::Tensor& first,
                          CoreState& state);

}  // namespace seedrl
