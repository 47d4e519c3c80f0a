#include <cmath>
#include <numbers>

#include "seedrl/util/rng.h"

namespace seedrl {

double Rng::normal() {
  // Box-Muller; 1 - u keeps the log argument in (0, 1].
  const double u1 = 1.0 - uniform();
  const double u2 = uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

}  // namespace seedrl
