// Several seeds of one configuration as one curve: the mean across seeds on a
// common grid, with a percentile-bootstrap confidence band over seeds.
#pragma once

#include <cstdint>
#include <vector>

namespace seedrl::report {

// y against x, x increasing; a NaN y is a point with no value (no episode
// had ended yet).
struct Curve {
  std::vector<double> x, y;
};

// y at `at` by linear interpolation between the nearest points with a value
// on either side (the point's own value at one); NaN outside them.
double interpolate(const Curve& curve, double at);

struct BandOptions {
  int points = 100;                      // grid size
  int resamples = 2000;                  // bootstrap resamples
  double confidence = 0.95;              // the band's coverage
  std::uint64_t rng_seed = 0x5eed5eedu;  // fixed: the same runs give the same report
};

// The mean of the seeds and the band, at each x of the grid.
struct Band {
  std::vector<double> x, mean, low, high;
};

// The grid spans the x range every seed has values over (from the latest
// first value to the earliest last one), `points` evenly spaced; empty when
// the seeds share no range. Each seed is interpolated onto it; the band at a
// grid point is the percentiles (1 - confidence) / 2 and (1 + confidence) / 2
// of the means of `resamples` resamples of the seeds (drawn with
// replacement, the same draw for every grid point). One seed: a band of width 0.
Band seed_band(const std::vector<Curve>& seeds, const BandOptions& options = {});

}  // namespace seedrl::report
