// What the user chooses about the network; plain data so configs and the CLI
// need no LibTorch.
#pragma once

#include <string>
#include <vector>

namespace seedrl {

struct ModelConfig {
  std::string torso = "auto";          // auto | mlp | minatar | impala | impala-shallow | nature (torso.h)
  std::vector<int> hidden = {64, 64};  // MLP torso widths
  std::string activation = "relu";     // MLP torso nonlinearity: relu | tanh
  // A second torso of its own for the value head (V-trace, no LSTM), as
  // PPO-style continuous-control agents use: the value loss then cannot
  // reshape the policy's features.
  bool separate_value_net = false;
  // The env's previous action (one-hot, zeros at an episode start) joins the
  // torso's features before the core and the heads, as IMPALA's and R2D2's
  // agents take it: a policy sampled afresh each step can then tell that it is
  // in the middle of an action that needs several steps of the same button
  // (Football's shot power is how long it is held). V-trace, discrete actions.
  bool prev_action_input = false;
  bool lstm = false;  // LSTM core between torso and heads
  int lstm_size = 64;
  // Running mean/variance normalisation of vector observations, inside the
  // model (so saved in checkpoints and shipped to inference with the weights);
  // the learner updates it from each batch it trains on.
  bool normalize_obs = false;
  // fp32 | bf16: bf16 runs the image torsos' layers in bfloat16, as autocast
  // would (each layer casts its float32 weights to bfloat16; the weights,
  // their gradients, the optimizer and everything after the torso stay
  // float32). For GPUs with bfloat16 tensor cores.
  std::string precision = "fp32";
  // default | orthogonal: the weights a fresh V-trace agent starts from.
  // orthogonal is PPO's Atari initialisation (orthogonal_init.h): torso gain
  // sqrt(2), policy head 0.01, value head 1, biases zero.
  std::string weight_init = "default";
};

}  // namespace seedrl
