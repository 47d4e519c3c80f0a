#include "seedrl/report/seed_aggregate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <utility>

namespace seedrl::report {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The curve's points that have a value, in x order (a file's x need not be).
Curve with_values(const Curve& c) {
  std::vector<std::pair<double, double>> points;
  for (std::size_t i = 0; i < std::min(c.x.size(), c.y.size()); ++i)
    if (std::isfinite(c.x[i]) && std::isfinite(c.y[i])) points.emplace_back(c.x[i], c.y[i]);
  if (!std::is_sorted(points.begin(), points.end()))
    std::stable_sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  Curve out;
  for (const auto& [x, y] : points) {
    out.x.push_back(x);
    out.y.push_back(y);
  }
  return out;
}

// Linear interpolation between order statistics of sorted `v` (numpy's default).
double quantile(const std::vector<double>& sorted, double q) {
  const double h = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

}  // namespace

double interpolate(const Curve& curve, double at) {
  const Curve c = with_values(curve);
  if (c.x.empty() || !(at >= c.x.front()) || !(at <= c.x.back())) return kNaN;
  const auto hi = static_cast<std::size_t>(std::lower_bound(c.x.begin(), c.x.end(), at) - c.x.begin());
  if (c.x[hi] == at) return c.y[hi];
  const std::size_t lo = hi - 1;  // c.x[lo] < at < c.x[hi]
  const double t = (at - c.x[lo]) / (c.x[hi] - c.x[lo]);
  return c.y[lo] + t * (c.y[hi] - c.y[lo]);
}

Band seed_band(const std::vector<Curve>& seeds, const BandOptions& options) {
  Band band;
  if (seeds.empty() || options.points < 1) return band;
  std::vector<Curve> curves;
  double from = -std::numeric_limits<double>::infinity(), to = std::numeric_limits<double>::infinity();
  for (const Curve& s : seeds) {
    curves.push_back(with_values(s));
    if (curves.back().x.empty()) return band;
    from = std::max(from, curves.back().x.front());
    to = std::min(to, curves.back().x.back());
  }
  if (from > to) return band;
  const int n = from == to ? 1 : options.points;
  for (int i = 0; i < n; ++i) band.x.push_back(i == n - 1 ? to : from + (to - from) * i / (n - 1));

  // values[s][i]: seed s at grid point i.
  const std::size_t k = curves.size();
  std::vector<std::vector<double>> values(k);
  for (std::size_t s = 0; s < k; ++s)
    for (const double x : band.x) values[s].push_back(interpolate(curves[s], x));
  for (std::size_t i = 0; i < band.x.size(); ++i) {
    double sum = 0;
    for (std::size_t s = 0; s < k; ++s) sum += values[s][i];
    band.mean.push_back(sum / static_cast<double>(k));
  }
  if (k == 1 || options.resamples < 1) {
    band.low = band.high = band.mean;
    return band;
  }

  // means[i][r]: resample r's mean at grid point i. Indices from the raw
  // generator (a distribution's output differs between standard libraries).
  std::mt19937_64 rng(options.rng_seed);
  const auto r_count = static_cast<std::size_t>(options.resamples);
  std::vector<std::vector<double>> means(band.x.size(), std::vector<double>(r_count));
  std::vector<std::size_t> draw(k);
  for (std::size_t r = 0; r < r_count; ++r) {
    for (auto& d : draw) d = static_cast<std::size_t>(rng() % k);
    for (std::size_t i = 0; i < band.x.size(); ++i) {
      double sum = 0;
      for (const std::size_t d : draw) sum += values[d][i];
      means[i][r] = sum / static_cast<double>(k);
    }
  }
  const double tail = (1 - options.confidence) / 2;
  for (auto& m : means) {
    std::sort(m.begin(), m.end());
    band.low.push_back(quantile(m, tail));
    band.high.push_back(quantile(m, 1 - tail));
  }
  return band;
}

}  // namespace seedrl::report
