#include "fused_adam.h"

#include <cmath>

namespace seedrl {

// Built with -fno-math-errno (CMakeLists.txt): std::sqrt then needs no errno
// branch, and the loop vectorises.
void fused_adam_step(float* __restrict param, float* __restrict grad, float* __restrict exp_avg,
                     float* __restrict exp_avg_sq, std::int64_t n, const AdamScalars& s, float grad_scale) {
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

double sum_of_squares(const float* x, std::int64_t n) {
  // Four independent sums, so the additions overlap instead of each waiting
  // on the one before.
  double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  std::int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    a0 += static_cast<double>(x[i]) * x[i];
    a1 += static_cast<double>(x[i + 1]) * x[i + 1];
    a2 += static_cast<double>(x[i + 2]) * x[i + 2];
    a3 += static_cast<double>(x[i + 3]) * x[i + 3];
  }
  for (; i < n; ++i) a0 += static_cast<double>(x[i]) * x[i];
  return (a0 + a1) + (a2 + a3);
}

}  // namespace seedrl
