// R2D2's invertible value rescaling (Pohlen et al. 2018, "Observe and Look
// Further"), applied to n-step targets: target = h(r + gamma^n h^-1(Q)).
#pragma once

#include <cmath>
#include <type_traits>

namespace seedrl::r2d2 {

inline constexpr double kValueRescalingEpsilon = 1e-3;

// h(x) = sign(x) (sqrt(|x| + 1) - 1) + eps x.
// sqrt(|x| + 1) - 1 is evaluated as |x| / (sqrt(|x| + 1) + 1), which is equal
// but does not cancel for small |x|.
template <typename T>
T value_rescale(T x, T eps = static_cast<T>(kValueRescalingEpsilon)) {
  static_assert(std::is_floating_point_v<T>);
  const T ax = std::abs(x);
  const T s = static_cast<T>((x > T(0)) - (x < T(0)));
  return s * (ax / (std::sqrt(ax + T(1)) + T(1))) + eps * x;
}

// Exact inverse: h^-1(x) = sign(x) (((sqrt(1 + 4 eps (|x| + 1 + eps)) - 1) / (2 eps))^2 - 1).
// With a = sqrt(1 + 4 eps (|x| + 1 + eps)) and q = (a - 1) / (2 eps), the
// result is sign(x) (q - 1)(q + 1), and both differences are rewritten
// without cancellation using a^2 - 1 = 4 eps (|x| + 1 + eps) and
// a^2 - (1 + 2 eps)^2 = 4 eps |x|:
//   q     = 2 (|x| + 1 + eps) / (a + 1)
//   q - 1 = 2 |x| (1 - 2 eps / (a + 1 + 2 eps)) / (a + 1)
// so h^-1 keeps full relative precision near 0 (the textbook form loses about
// log10(1 / eps) digits there, which is fatal in float).
template <typename T>
T inverse_value_rescale(T x, T eps = static_cast<T>(kValueRescalingEpsilon)) {
  static_assert(std::is_floating_point_v<T>);
  const T ax = std::abs(x);
  const T s = static_cast<T>((x > T(0)) - (x < T(0)));
  const T a = std::sqrt(T(1) + T(4) * eps * (ax + T(1) + eps));
  const T q = T(2) * (ax + T(1) + eps) / (a + T(1));
  const T q_minus_1 = T(2) * ax * (T(1) - T(2) * eps / (a + T(1) + T(2) * eps)) / (a + T(1));
  return s * q_minus_1 * (q + T(1));
}

}  // namespace seedrl::r2d2
