#include "fused_adam.h"

#include <cmath>

#include "seedrl/util/vector_clones.h"

namespace seedrl {

// Built with -fno-math-errno (CMakeLists.txt): std::sqrt then needs no errno
// branch, and the loop vectorises.
SEEDRL_VECTOR_CLONES void fused_adam_step(float* __restrict param, float* __restrict grad, float* __restrict exp_avg,
                                          float* __restrict exp_avg_sq, std::int64_t n, const AdamScalars& s,
                                          float grad_scale) {
  const float b1 = static_cast<float>(s.beta1), one_b1 = static_cast<float>(1 - s.beta1);
  const float b2 = static_cast<float>(s.beta2), one_b2 = static_cast<float>(1 - s.beta2);
  const float step = s.step_size, bc2 = s.bias_correction2_sqrt, eps = static_cast<float>(s.eps);
  for (std::int64_t i = 0; i < n; ++i) {
    const float g = grad[i] * grad_scale;
    grad[i] = g;
    const float m = exp_avg[i] * b1 + one_b1 * g;
    const float v = exp_avg_sq[i] * b2 + one_b2 * (g * g);
    exp_avg[i] = m;
    exp_avg_sq[i] = v;
    param[i] -= (m * step) / (std::sqrt(v) / bc2 + eps);
  }
}

SEEDRL_VECTOR_CLONES double sum_of_squares(const float* x, std::int64_t n) {
  // Eight independent sums, so the additions overlap instead of each waiting
  // on the one before, and the compiler can keep them in one vector.
  constexpr int kLanes = 8;
  double lane[kLanes] = {};
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int k = 0; k < kLanes; ++k) lane[k] += static_cast<double>(x[i + k]) * x[i + k];
  for (; i < n; ++i) lane[0] += static_cast<double>(x[i]) * x[i];
  return ((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7]));
}

}  // namespace seedrl
