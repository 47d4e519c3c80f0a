// Adam's update of one float32 parameter in a single pass over its numbers,
// for a learner on the CPU: the arithmetic of DeviceOptimizerStep's tensor
// ops (learner/device_optimizer_step.h), in the same order and precision,
// without the temporaries each of those ops allocates and fills.
#pragma once

#include <cstdint>

namespace seedrl {

struct AdamScalars {
  double beta1, beta2, eps;     // used in float, as LibTorch's kernels use them
  float step_size;              // lr / (1 - beta1^t)
  float bias_correction2_sqrt;  // sqrt(1 - beta2^t)
};

// g *= grad_scale (stored back, as clip_grad_norm_ scales the gradients);
// m = beta1 m + (1 - beta1) g; v = beta2 v + (1 - beta2) g^2;
// p -= (step_size m) / (sqrt(v) / bias_correction2_sqrt + eps), element by element.
void fused_adam_step(float* param, float* grad, float* exp_avg, float* exp_avg_sq, std::int64_t n, const AdamScalars& s,
                     float grad_scale = 1.f);

// The sum of x[i]^2, accumulated in double: a gradient's share of the clip's
// global norm.
double sum_of_squares(const float* x, std::int64_t n);

}  // namespace seedrl
