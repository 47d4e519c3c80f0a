// Orthogonal weight initialisation (Saxe et al. 2014) as PPO implementations
// use it on Atari (OpenAI baselines, CleanRL): every Linear and Conv2d weight
// an orthogonal matrix times a gain (its [out, in*k*k] flattening has
// orthonormal rows or columns), every bias zero. LibTorch's default (Kaiming
// uniform with a = sqrt(5)) gives each ReLU layer a third of He's variance, so
// a deep torso's features start small.
#pragma once

#include <torch/nn/module.h>

namespace seedrl {

// Re-initialises every Linear and Conv2d in `module` (itself included) with
// orthogonal weights of the given gain and zero biases; other modules (LSTM,
// normalisers) keep theirs. Throws on a gain that is not finite and positive.
void orthogonal_init(torch::nn::Module& module, double gain);

}  // namespace seedrl
