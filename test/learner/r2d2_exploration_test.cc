// Ape-X epsilon schedule and the epsilon-greedy action selector.
#include <catch2/catch.hpp>

#include <cmath>

#include <torch/torch.h>

#include "seedrl/learner/r2d2/epsilon_greedy.h"

using namespace seedrl::r2d2;

TEST_CASE("Ape-X epsilons follow eps^(1 + alpha i / (N - 1))", "[r2d2][epsilon]") {
  CHECK(apex_epsilon(0, 8, 0.4, 7) == Approx(0.4));
  CHECK(apex_epsilon(7, 8, 0.4, 7) == Approx(std::pow(0.4, 8)));  // 6.5536e-4
  CHECK(apex_epsilon(3, 8, 0.4, 7) == Approx(0.0256));             // 0.4^4
  CHECK(apex_epsilon(0, 1, 0.4, 7) == Approx(0.4));                // a single env gets eps
  // Strictly decreasing over actors.
  for (int i = 1; i < 256; ++i) CHECK(apex_epsilon(i, 256, 0.4, 7) < apex_epsilon(i - 1, 256, 0.4, 7));
}

TEST_CASE("epsilon-greedy acts randomly at each slot's rate and greedily otherwise", "[r2d2][epsilon]") {
  const int A = 3, train = 4, eval = 1;
  EpsilonGreedySelector sel(A, train, eval, 0.4, 7, 0.001, 11);
  CHECK(sel.epsilon(0) == Approx(0.4));
  CHECK(sel.epsilon(3) == Approx(std::pow(0.4, 8)));
  CHECK(sel.epsilon(4) == Approx(0.001));
  auto q = torch::tensor({{0.f, 5.f, 1.f}, {0.f, 5.f, 1.f}, {0.f, 5.f, 1.f}});  // greedy action 1
  auto slots = torch::tensor({0, 3, 4}, torch::kInt64);
  const int draws = 30000;
  int off0 = 0, off3 = 0, off4 = 0;
  for (int i = 0; i < draws; ++i) {
    auto a = sel.select(q, slots);
    REQUIRE(a.sizes() == torch::IntArrayRef({3, 1}));
    off0 += a[0][0].item<float>() != 1.f;
    off3 += a[1][0].item<float>() != 1.f;
    off4 += a[2][0].item<float>() != 1.f;
  }
  // A random action differs from the greedy one with probability eps (A-1)/A.
  const double p0 = 0.4 * 2 / 3;
  CHECK(off0 / double(draws) == Approx(p0).margin(4 * std::sqrt(p0 * (1 - p0) / draws)));
  CHECK(off3 < 60);  // expected 13
  CHECK(off4 < 80);  // expected 20
}
