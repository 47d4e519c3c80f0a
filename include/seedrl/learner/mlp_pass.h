// A fully connected network's forward and backward pass written out by hand,
// on buffers made once: Linear layers with ReLU or tanh between them and none
// after the last, as model/torso.h's MLP and a linear head make them. Autograd
// records a graph node per op and allocates every intermediate anew; here a
// layer is one matmul with its bias, one activation in place, and on the way
// back one matmul per gradient. A learner whose network is this small (SAC's
// critics) spends more time in that bookkeeping than in the matmuls.
//
// Its float32 products go through learner/cpu_matmul.h (oneDNN where the
// build has it), each layer's bias and activation folded into its forward
// product.
//
// The pass reads the parameters' tensors at each call (a checkpoint loaded
// into them is seen) and takes no gradient through autograd: it runs as if
// under torch::NoGradGuard. One pass object serves one thread.
//
// With `bf16_matmuls`, the hidden layers' matmuls (forward, weight gradient,
// gradient to the input) take their operands rounded to bfloat16, as a GPU's
// TF32 mode or oneDNN's bf16 math mode do: on a CPU with AMX (or AVX512-BF16
// on AMD) they run several times faster than float32 ones. Everything else stays
// float32: the parameters, their gradients, the activations between layers,
// the biases and the last layer (the narrow head: a Q value, a Gaussian's
// parameters) whole. Each forward takes bfloat16 copies of the weights, which
// its backward pass uses.
#pragma once

#include <cstdint>
#include <vector>

#include <ATen/core/Tensor.h>

#include "seedrl/learner/cpu_matmul.h"

namespace seedrl {

class MlpPass {
 public:
  // `params`: weight [out, in] and bias [out] of each Linear layer in order
  // (a Module's parameters() for Linear layers registered in turn). `tanh`:
  // the activation between the layers, else ReLU. Throws std::invalid_argument
  // for an odd count, a missing layer or shapes that do not chain.
  MlpPass(std::vector<at::Tensor> params, bool tanh, bool bf16_matmuls = false);

  // x [N, in] -> [N, out]. Keeps what backward() needs until the next forward.
  // The result is a buffer of the pass's own: valid until the next forward.
  const at::Tensor& forward(const at::Tensor& x);

  // Given the loss's gradient to the last forward's output ([N, out]): with
  // `param_grads`, sets each parameter's .grad() to its gradient (buffers of
  // the pass's own, overwritten by the next backward); returns the gradient
  // to input columns [first, first + count) of that forward's x (count 0:
  // none, an undefined tensor).
  at::Tensor backward(const at::Tensor& grad_out, bool param_grads, std::int64_t first = 0, std::int64_t count = 0);

 private:
  bool bf16_layer(std::size_t l) const;  // layer l's matmuls take bfloat16 operands

  std::vector<at::Tensor> weights_, biases_;
  bool tanh_;
  bool bf16_;
  at::Tensor input_;
  std::vector<at::Tensor> outputs_;          // each layer's output (after its activation)
  std::vector<at::Tensor> grads_, grad_in_;  // two buffers per layer for the gradient to its output
  std::vector<at::Tensor> weight_grads_, bias_grads_;
  // Per layer, the float32 products of its forward, weight gradient and input gradient.
  std::vector<CpuMatmul> forward_mm_, weight_grad_mm_, input_grad_mm_;
  // bf16_: per hidden layer, the weights' and the input's bfloat16 copies
  // from forward, and bfloat16 scratch for its products and its output's gradient.
  std::vector<at::Tensor> weights16_, inputs16_, products16_, grads16_, weight_grads16_, grad_in16_;
};

}  // namespace seedrl
