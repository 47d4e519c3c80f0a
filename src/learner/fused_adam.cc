#include "fused_adam.h"

#include <cmath>

namespace seedrl {

// Built with -fno-math-errno (CMakeLists.txt): std::sqrt then needs no errno
// branch, and the loop vectorises.
void fused_adam_step(float* __restrict param, const float* __restrict grad, float* __restrict exp_avg,
                     float* __restrict exp_avg_sq, std::int64_t n, const AdamScalars& s) {
  const float b1 = static_cast<float>(s.beta1), one_b1 = static_cast<float>(1 - s.beta1);
  const float b2 = static_cast<float>(s.beta2), one_b2 = static_cast<float>(1 - s.beta2);
  const float step = s.step_size, bc2 = s.bias_correction2_sqrt, eps = static_cast<float>(s.eps);
  for (std::int64_t i = 0; i < n; ++i) {
    const float g = grad[i];
    const float m = exp_avg[i] * b1 + one_b1 * g;
    const float v = exp_avg_sq[i] * b2 + one_b2 * (g * g);
    exp_avg[i] = m;
    exp_avg_sq[i] = v;
    param[i] -= (m * step) / (std::sqrt(v) / bc2 + eps);
  }
}

}  // namespace seedrl
