// The mean over seeds and its bootstrap band (report/seed_aggregate.h),
// against a reference computed here in double precision.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "seedrl/report/seed_aggregate.h"

using seedrl::report::Band;
using seedrl::report::Curve;
using seedrl::report::interpolate;
using seedrl::report::seed_band;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// y at x on the polyline through the points with a value: a plain scan.
double reference_at(const Curve& c, double x) {
  std::vector<std::pair<double, double>> p;
  for (std::size_t i = 0; i < c.x.size(); ++i)
    if (!std::isnan(c.y[i])) p.emplace_back(c.x[i], c.y[i]);
  for (std::size_t i = 0; i + 1 < p.size(); ++i) {
    if (x >= p[i].first && x <= p[i + 1].first) {
      const double w = (x - p[i].first) / (p[i + 1].first - p[i].first);
      return (1 - w) * p[i].second + w * p[i + 1].second;
    }
  }
  if (p.size() == 1 && x == p[0].first) return p[0].second;
  return kNaN;
}

// A seed's curve: its own frame grid (uneven steps), values that wander.
Curve random_curve(std::mt19937& rng, double start, double end, int leading_nans) {
  std::uniform_real_distribution<double> step(500, 1500), noise(-3, 3);
  Curve c;
  double y = 10;
  for (double x = start; x < end; x += step(rng)) {
    c.x.push_back(x);
    y += noise(rng);
    c.y.push_back(static_cast<int>(c.x.size()) <= leading_nans ? kNaN : y);
  }
  c.x.push_back(end);
  c.y.push_back(y);
  return c;
}

}  // namespace

TEST_CASE("interpolate is linear between the points with a value", "[report]") {
  const Curve c{{0, 10, 20, 30}, {kNaN, 1, 3, 7}};
  CHECK(std::isnan(interpolate(c, 5)));  // before the first value
  CHECK(interpolate(c, 10) == 1);
  CHECK(interpolate(c, 15) == Approx(2));
  CHECK(interpolate(c, 27.5) == Approx(6));
  CHECK(interpolate(c, 30) == 7);
  CHECK(std::isnan(interpolate(c, 30.5)));
}

TEST_CASE("the seed mean is the mean of the interpolated curves over the range all seeds cover", "[report]") {
  std::mt19937 rng(11);
  const std::vector<Curve> seeds = {random_curve(rng, 0, 100000, 3), random_curve(rng, 250, 90000, 0),
                                    random_curve(rng, 40, 120000, 7), random_curve(rng, 0, 95000, 1)};
  double from = -1e300, to = 1e300;
  for (const Curve& s : seeds) {
    std::size_t first = 0;
    while (std::isnan(s.y[first])) ++first;
    from = std::max(from, s.x[first]);
    to = std::min(to, s.x.back());
  }
  const Band band = seed_band(seeds);
  REQUIRE(band.x.size() == 100);
  REQUIRE(band.mean.size() == 100);
  CHECK(band.x.front() == Approx(from));
  CHECK(band.x.back() == Approx(to));
  for (std::size_t i = 0; i < band.x.size(); ++i) {
    const double x = from + (to - from) * static_cast<double>(i) / 99.0;
    CHECK(band.x[i] == Approx(x).epsilon(1e-12));
    double sum = 0;
    for (const Curve& s : seeds) sum += reference_at(s, x);
    CHECK(band.mean[i] == Approx(sum / seeds.size()).epsilon(1e-9));
  }
}

TEST_CASE("the bootstrap band holds the mean and stays within the seeds", "[report]") {
  std::mt19937 rng(5);
  std::vector<Curve> seeds;
  for (int s = 0; s < 5; ++s) seeds.push_back(random_curve(rng, 0, 50000, s));
  const Band band = seed_band(seeds);
  REQUIRE(band.x.size() == 100);
  REQUIRE(band.low.size() == 100);
  REQUIRE(band.high.size() == 100);
  bool some_width = false;
  for (std::size_t i = 0; i < band.x.size(); ++i) {
    double lo = 1e300, hi = -1e300;
    for (const Curve& s : seeds) {
      lo = std::min(lo, reference_at(s, band.x[i]));
      hi = std::max(hi, reference_at(s, band.x[i]));
    }
    CHECK(band.low[i] <= band.mean[i]);
    CHECK(band.mean[i] <= band.high[i]);
    CHECK(band.low[i] >= lo - 1e-9);
    CHECK(band.high[i] <= hi + 1e-9);
    some_width |= band.high[i] - band.low[i] > 1e-6;
  }
  CHECK(some_width);
  // The RNG's seed is fixed: the same runs give the same band.
  const Band again = seed_band(seeds);
  CHECK(again.low == band.low);
  CHECK(again.high == band.high);
}

TEST_CASE("identical seeds have a band of width 0 at their mean", "[report]") {
  const Curve c{{0, 1000, 2000, 3000}, {kNaN, 0.1, 0.7, 0.3}};
  const Band band = seed_band({c, c, c});
  REQUIRE(band.x.size() == 100);
  for (std::size_t i = 0; i < band.x.size(); ++i) {
    CHECK(band.low[i] == band.mean[i]);
    CHECK(band.high[i] == band.mean[i]);
    CHECK(band.mean[i] == Approx(reference_at(c, band.x[i])).epsilon(1e-12));
  }
}

TEST_CASE("the band is the 2.5th and 97.5th percentiles of the resampled means", "[report]") {
  // Two seeds, 0 and 10: a resample's mean is 0, 5 or 10 (1/4, 1/2, 1/4).
  const Band two = seed_band({Curve{{0, 100}, {0, 0}}, Curve{{0, 100}, {10, 10}}});
  REQUIRE_FALSE(two.x.empty());
  CHECK(two.mean[0] == 5);
  CHECK(two.low[0] == 0);
  CHECK(two.high[0] == 10);
  // Ten seeds 0..9: the mean 4.5, its bootstrap standard error about
  // 2.87 / sqrt(10) = 0.91, so the band is about 4.5 -+ 1.8, much narrower
  // than the seeds' range.
  std::vector<Curve> ten;
  for (int s = 0; s < 10; ++s) ten.push_back(Curve{{0, 100}, {double(s), double(s)}});
  const Band band = seed_band(ten);
  CHECK(band.mean[0] == Approx(4.5));
  CHECK(band.low[0] > 2.2);
  CHECK(band.low[0] < 3.3);
  CHECK(band.high[0] > 5.7);
  CHECK(band.high[0] < 6.8);
}

TEST_CASE("seeds that share no frame range give no band", "[report]") {
  CHECK(seed_band({Curve{{0, 10}, {1, 2}}, Curve{{20, 30}, {1, 2}}}).x.empty());
  CHECK(seed_band({Curve{{0, 10}, {1, 2}}, Curve{{0, 10}, {kNaN, kNaN}}}).x.empty());
  // One point in common: a band of one point.
  const Band one = seed_band({Curve{{0, 10}, {1, 2}}, Curve{{10, 20}, {4, 5}}});
  REQUIRE(one.x.size() == 1);
  CHECK(one.x[0] == 10);
  CHECK(one.mean[0] == 3);
}
