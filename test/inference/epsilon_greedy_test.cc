// Ape-X epsilon schedule and the epsilon-greedy action selector (R2D2 acting).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include <torch/torch.h>

#include "seedrl/inference/epsilon_greedy.h"

using namespace seedrl::r2d2;

TEST_CASE("Ape-X epsilons follow eps^(1 + alpha i / (N - 1))", "[inference][r2d2][epsilon]") {
  CHECK(apex_epsilon(0, 8, 0.4, 7) == Approx(0.4));
  CHECK(apex_epsilon(7, 8, 0.4, 7) == Approx(std::pow(0.4, 8)));  // 6.5536e-4
  CHECK(apex_epsilon(3, 8, 0.4, 7) == Approx(0.0256));            // 0.4^4
  CHECK(apex_epsilon(0, 1, 0.4, 7) == Approx(0.4));               // a single env gets eps
  // Strictly decreasing over actors.
  for (int i = 1; i < 256; ++i) CHECK(apex_epsilon(i, 256, 0.4, 7) < apex_epsilon(i - 1, 256, 0.4, 7));
}

TEST_CASE("remote slots spread over the Ape-X schedule whatever number of them is leased",
          "[inference][r2d2][epsilon]") {
  CHECK(van_der_corput(0) == 0.0);
  CHECK(van_der_corput(1) == 0.5);
  CHECK(van_der_corput(2) == 0.25);
  CHECK(van_der_corput(3) == 0.75);
  CHECK(van_der_corput(6) == 0.375);  // 110b -> 0.011b
  // 4 local slots, 256 remote ones, 2 eval ones.
  EpsilonGreedySelector sel(6, 260, 2, 0.4, 7, 0.01, 1, 256);
  for (int i = 0; i < 4; ++i) CHECK(sel.epsilon(i) == Approx(apex_epsilon(i, 4, 0.4, 7)));
  CHECK(sel.epsilon(4) == Approx(0.4));                 // first remote slot: fraction 0
  CHECK(sel.epsilon(5) == Approx(std::pow(0.4, 4.5)));  // fraction 1/2
  CHECK(sel.epsilon(260) == Approx(0.01));
  CHECK(sel.epsilon(261) == Approx(0.01));
  // The first 16 remote slots (one connection of 16 envs) hold one epsilon
  // per sixteenth of the schedule: fractions exactly {0, 1/16, ..., 15/16}.
  std::vector<double> fractions;
  for (int j = 0; j < 16; ++j) fractions.push_back((std::log(sel.epsilon(4 + j)) / std::log(0.4) - 1) / 7);
  std::sort(fractions.begin(), fractions.end());
  for (int j = 0; j < 16; ++j) CHECK(fractions[j] == Approx(j / 16.0).margin(1e-12));
}

TEST_CASE("epsilon-greedy acts randomly at each slot's rate and greedily otherwise", "[inference][r2d2][epsilon]") {
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
