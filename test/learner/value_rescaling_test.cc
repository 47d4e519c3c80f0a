#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "seedrl/learner/r2d2/value_rescaling.h"

using namespace seedrl::r2d2;

namespace {

// The published formulas, verbatim, in long double as the reference.
long double ref_h(long double x) {
  const long double eps = 1e-3L, s = (x > 0) - (x < 0);
  return s * (std::sqrt(std::fabs(x) + 1.0L) - 1.0L) + eps * x;
}
long double ref_h_inv(long double x) {
  const long double eps = 1e-3L, s = (x > 0) - (x < 0);
  const long double q = (std::sqrt(1.0L + 4.0L * eps * (std::fabs(x) + 1.0L + eps)) - 1.0L) / (2.0L * eps);
  return s * (q * q - 1.0L);
}

// Log-spaced magnitudes 1e-6 .. 1e6 with both signs and 0: the range of
// returns the learner sees, and then some.
std::vector<double> grid() {
  std::vector<double> xs = {0.0};
  for (int i = 0; i <= 1200; ++i) {
    const double m = std::pow(10.0, -6.0 + 12.0 * i / 1200.0);
    xs.push_back(m);
    xs.push_back(-m);
  }
  return xs;
}

double rel_err(double got, long double want) {
  if (want == 0) return std::fabs(got);
  return static_cast<double>(std::fabs((got - want) / want));
}

}  // namespace

TEST_CASE("value rescaling matches hand-computed values", "[learner][r2d2][value_rescaling]") {
  CHECK(value_rescale(0.0) == 0.0);
  CHECK(inverse_value_rescale(0.0) == 0.0);
  CHECK(value_rescale(0.0f) == 0.0f);
  // h(99) = sqrt(100) - 1 + 0.099 = 9.099; h(1) = sqrt(2) - 1 + 0.001.
  CHECK(value_rescale(99.0) == Approx(9.099).epsilon(1e-15));
  CHECK(value_rescale(-99.0) == Approx(-9.099).epsilon(1e-15));
  CHECK(value_rescale(1.0) == Approx(0.41521356237309515).epsilon(1e-15));
  CHECK(inverse_value_rescale(9.099) == Approx(99.0).epsilon(1e-13));
  CHECK(inverse_value_rescale(-9.099) == Approx(-99.0).epsilon(1e-13));
}

TEST_CASE("value rescaling agrees with the published formulas", "[learner][r2d2][value_rescaling]") {
  double worst_h = 0, worst_inv = 0;
  for (double x : grid()) {
    worst_h = std::max(worst_h, rel_err(value_rescale(x), ref_h(x)));
    worst_inv = std::max(worst_inv, rel_err(inverse_value_rescale(x), ref_h_inv(x)));
  }
  CHECK(worst_h < 1e-12);
  CHECK(worst_inv < 1e-9);  // the long double reference itself cancels near 0
}

TEST_CASE("value rescaling inverts exactly and is monotone", "[learner][r2d2][value_rescaling]") {
  const auto xs = grid();
  double worst = 0, worst_rev = 0;
  float worst_f = 0;
  for (double x : xs) {
    worst = std::max(worst, rel_err(inverse_value_rescale(value_rescale(x)), x));
    worst_rev = std::max(worst_rev, rel_err(value_rescale(inverse_value_rescale(x)), x));
    CHECK(value_rescale(-x) == -value_rescale(x));
    const float xf = static_cast<float>(x);
    if (xf != 0.0f) {
      worst_f = std::max(worst_f, std::fabs(inverse_value_rescale(value_rescale(xf)) - xf) / std::fabs(xf));
    }
  }
  CHECK(worst < 1e-6);   // the required bound
  CHECK(worst < 1e-13);  // what the cancellation-free form actually achieves
  CHECK(worst_rev < 1e-13);
  CHECK(worst_f < 2e-6f);  // the textbook form is off by >100% near 0 in float

  // Strictly increasing on a fine signed grid, in both directions.
  double prev_h = -INFINITY, prev_inv = -INFINITY;
  int violations = 0;
  for (int i = -20000; i <= 20000; ++i) {
    const double x = std::copysign(std::pow(10.0, -6.0 + 12.0 * std::abs(i) / 20000.0), i) * (i != 0);
    const double h = value_rescale(x), inv = inverse_value_rescale(x);
    violations += !(h > prev_h) + !(inv > prev_inv);
    prev_h = h;
    prev_inv = inv;
  }
  CHECK(violations == 0);
}
