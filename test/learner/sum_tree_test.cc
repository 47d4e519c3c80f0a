#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "seedrl/learner/r2d2/sum_tree.h"
#include "seedrl/util/rng.h"

using seedrl::Rng;
using seedrl::r2d2::SumTree;

namespace {

double linear_total(const std::vector<double>& p) {
  double s = 0;
  for (double x : p) s += x;
  return s;
}

// Reference: the first i with u < p[0] + ... + p[i], accumulated left to right.
std::size_t linear_find(const std::vector<double>& p, double u) {
  double cum = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    cum += p[i];
    if (u < cum) return i;
  }
  return p.size();
}

}  // namespace

TEST_CASE("sum tree totals track a linear sum through many updates", "[learner][r2d2][sum_tree]") {
  const std::size_t n = 1000;  // not a power of two
  SumTree tree(n);
  std::vector<double> p(n, 0.0);
  CHECK(tree.total() == 0.0);
  Rng rng(42);
  for (int k = 1; k <= 200000; ++k) {
    const std::size_t i = rng.below(n);
    const double v = rng.bernoulli(0.1) ? 0.0 : std::pow(10.0, rng.uniform(-4.0, 4.0));
    tree.set(i, v);
    p[i] = v;
    if (k % 2000 == 0) {
      REQUIRE(tree.total() == Approx(linear_total(p)).epsilon(1e-12));
    }
  }
  for (std::size_t i = 0; i < n; ++i) REQUIRE(tree.get(i) == p[i]);

  // Drift-free: after all that churn, priorities whose sums are exact in
  // double must give exactly the exact total (a delta-updated tree would keep
  // residue from the 200k earlier updates).
  for (std::size_t i = 0; i < n; ++i) tree.set(i, 0.5);
  CHECK(tree.total() == 500.0);
  for (std::size_t i = 0; i < n; ++i) {
    p[i] = static_cast<double>(i % 7);
    tree.set(i, p[i]);
  }
  CHECK(tree.total() == linear_total(p));  // integers: both sums are exact
  for (std::size_t i = 0; i < n; ++i) tree.set(i, 0.0);
  CHECK(tree.total() == 0.0);
}

TEST_CASE("sum tree prefix search matches a linear scan", "[learner][r2d2][sum_tree]") {
  Rng rng(7);
  SECTION("dyadic priorities: every sum is exact, so answers must agree everywhere") {
    for (std::size_t n : {1u, 2u, 3u, 5u, 64u, 100u, 777u}) {
      SumTree tree(n);
      std::vector<double> p(n);
      for (std::size_t i = 0; i < n; ++i) {
        p[i] = rng.bernoulli(0.3) ? 0.0 : static_cast<double>(rng.below(64) + 1) / 8.0;
        tree.set(i, p[i]);
      }
      if (linear_total(p) == 0.0) {
        p[0] = 1.0;
        tree.set(0, 1.0);
      }
      REQUIRE(tree.total() == linear_total(p));
      // Random u, and every boundary cum[i] exactly (prefix semantics: a
      // boundary belongs to the next positive leaf).
      for (int k = 0; k < 20000; ++k) {
        const double u = rng.uniform() * tree.total();
        REQUIRE(tree.find_prefix_sum(u) == linear_find(p, u));
      }
      double cum = 0;
      for (std::size_t i = 0; i < n; ++i) {
        if (cum < tree.total()) REQUIRE(tree.find_prefix_sum(cum) == linear_find(p, cum));
        cum += p[i];
      }
    }
  }
  SECTION("real priorities: agree away from rounding-sized neighbourhoods of boundaries") {
    const std::size_t n = 513;
    SumTree tree(n);
    std::vector<double> p(n), cum(n + 1, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      p[i] = rng.bernoulli(0.2) ? 0.0 : std::pow(10.0, rng.uniform(-3.0, 3.0));
      tree.set(i, p[i]);
      cum[i + 1] = cum[i] + p[i];
    }
    int compared = 0;
    for (int k = 0; k < 100000; ++k) {
      const double u = rng.uniform() * tree.total();
      const std::size_t want = linear_find(p, u);
      const bool near_boundary = (want < n && std::fabs(u - cum[want + 1]) < 1e-9 * tree.total()) ||
                                 (want < n && std::fabs(u - cum[want]) < 1e-9 * tree.total());
      if (near_boundary) continue;
      REQUIRE(tree.find_prefix_sum(u) == want);
      ++compared;
    }
    CHECK(compared > 99000);
  }
}

TEST_CASE("sum tree samples in proportion to priority", "[learner][r2d2][sum_tree]") {
  const std::vector<double> p = {3, 0, 1, 0.5, 0, 7, 2, 2, 0, 4.25, 1, 0.1, 6};
  SumTree tree(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) tree.set(i, p[i]);
  const double total = linear_total(p);
  REQUIRE(tree.total() == total);

  Rng rng(2024);
  const int draws = 200000;
  std::vector<int> counts(p.size(), 0);
  for (int k = 0; k < draws; ++k) ++counts[tree.find_prefix_sum(rng.uniform() * tree.total())];

  double chi2 = 0, chi2_uniform = 0;
  int cells = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] == 0.0) {
      CHECK(counts[i] == 0);
      continue;
    }
    const double expected = draws * p[i] / total;
    chi2 += (counts[i] - expected) * (counts[i] - expected) / expected;
    ++cells;
  }
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] == 0.0) continue;
    const double expected = static_cast<double>(draws) / cells;
    chi2_uniform += (counts[i] - expected) * (counts[i] - expected) / expected;
  }
  REQUIRE(cells == 10);
  // 99.9th percentile of chi-squared with 9 degrees of freedom.
  const double critical = 27.877;
  CHECK(chi2 < critical);
  // The test has power: the same counts reject uniform sampling overwhelmingly.
  CHECK(chi2_uniform > 100 * critical);
}

TEST_CASE("sum tree never returns a zero-priority leaf", "[learner][r2d2][sum_tree]") {
  Rng rng(99);
  SECTION("edge values of u") {
    SumTree tree(10);  // padded to 16 leaves
    const std::vector<double> p = {0, 0, 2, 0, 1, 0, 0, 3, 0, 0};
    for (std::size_t i = 0; i < p.size(); ++i) tree.set(i, p[i]);
    CHECK(tree.find_prefix_sum(0.0) == 2);
    CHECK(tree.find_prefix_sum(-1.0) == 2);
    CHECK(tree.find_prefix_sum(std::numeric_limits<double>::quiet_NaN()) == 2);
    CHECK(tree.find_prefix_sum(std::nextafter(2.0, 0.0)) == 2);
    CHECK(tree.find_prefix_sum(2.0) == 4);
    CHECK(tree.find_prefix_sum(3.0) == 7);
    CHECK(tree.find_prefix_sum(std::nextafter(6.0, 0.0)) == 7);
    CHECK(tree.find_prefix_sum(6.0) == 7);  // u == total: clamped to the last positive leaf
    CHECK(tree.find_prefix_sum(1e300) == 7);
    CHECK(tree.find_prefix_sum(std::numeric_limits<double>::infinity()) == 7);
  }
  SECTION("capacity one") {
    SumTree tree(1);
    tree.set(0, 0.25);
    CHECK(tree.total() == 0.25);
    CHECK(tree.find_prefix_sum(0.0) == 0);
    CHECK(tree.find_prefix_sum(0.2) == 0);
  }
  SECTION("mixed magnitudes where rounded sums exceed the exact ones") {
    // Priorities spanning 30 orders of magnitude make parent sums round, so
    // u can land past the exact right edge of a subtree.
    for (int trial = 0; trial < 200; ++trial) {
      const std::size_t n = 1 + rng.below(40);
      SumTree tree(n);
      std::vector<double> p(n);
      for (std::size_t i = 0; i < n; ++i) {
        p[i] = rng.bernoulli(0.5) ? 0.0 : std::pow(10.0, rng.uniform(-15.0, 15.0));
        tree.set(i, p[i]);
      }
      if (tree.total() == 0.0) continue;
      std::vector<double> us = {0.0, tree.total(), std::nextafter(tree.total(), 0.0)};
      double u = tree.total();
      for (int k = 0; k < 50; ++k) us.push_back(u = std::nextafter(u, 0.0));
      for (int k = 0; k < 500; ++k) us.push_back(rng.uniform() * tree.total());
      for (double x : us) {
        const std::size_t i = tree.find_prefix_sum(x);
        REQUIRE(i < n);
        REQUIRE(p[i] > 0.0);
      }
    }
  }
}

TEST_CASE("sum tree rejects invalid arguments", "[learner][r2d2][sum_tree]") {
  CHECK_THROWS_AS(SumTree(0), std::invalid_argument);
  SumTree tree(3);
  CHECK_THROWS_AS(tree.find_prefix_sum(0.0), std::logic_error);
  CHECK_THROWS_AS(tree.set(3, 1.0), std::out_of_range);
  CHECK_THROWS_AS(tree.get(3), std::out_of_range);
  CHECK_THROWS_AS(tree.set(0, -1.0), std::invalid_argument);
  CHECK_THROWS_AS(tree.set(0, std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
  CHECK_THROWS_AS(tree.set(0, std::numeric_limits<double>::infinity()), std::invalid_argument);
  CHECK(tree.total() == 0.0);  // rejected sets changed nothing
}
