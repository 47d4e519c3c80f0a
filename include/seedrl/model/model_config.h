// What the user chooses about the network; plain data so configs and the CLI
// need no LibTorch.
#pragma once

#include <string>
#include <vector>

namespace seedrl {

struct ModelConfig {
  std::string torso = "auto";        // auto | mlp | minatar | impala (torso.h)
  std::vector<int> hidden = {64, 64};  // MLP torso widths
  std::string activation = "relu";   // MLP torso nonlinearity: relu | tanh
  // A second torso of its own for the value head (V-trace, no LSTM), as
  // PPO-style continuous-control agents use: the value loss then cannot
  // reshape the policy's features.
  bool separate_value_net = false;
  bool lstm = false;                 // LSTM core between torso and heads
  int lstm_size = 64;
  // Running mean/variance normalisation of vector observations, inside the
  // model (so saved in checkpoints and shipped to inference with the weights);
  // the learner updates it from each batch it trains on.
  bool normalize_obs = false;
};

}  // namespace seedrl
