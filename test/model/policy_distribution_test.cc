#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include <torch/torch.h>

#include "seedrl/model/policy_distribution.h"

using namespace seedrl;

namespace {
const double kPi = 3.14159265358979323846;
}

TEST_CASE("categorical log-prob and entropy match a hand computation", "[model][distribution]") {
  auto dist = make_policy_distribution(ActionSpec::discrete(3));
  REQUIRE(dist->param_size() == 3);
  // logits (1, 2, 0.5): Z = e + e^2 + e^0.5
  const double l[3] = {1.0, 2.0, 0.5};
  const double z = std::exp(1.0) + std::exp(2.0) + std::exp(0.5);
  double entropy = 0;
  for (double li : l) entropy -= std::exp(li) / z * (li - std::log(z));
  auto logits = torch::tensor({1.0f, 2.0f, 0.5f}).view({1, 3}).expand({3, 3}).contiguous();
  auto actions = torch::tensor({0.f, 1.f, 2.f}).view({3, 1});
  auto lp = dist->log_prob(logits, actions);
  REQUIRE(lp.sizes() == std::vector<std::int64_t>{3});
  for (int a = 0; a < 3; ++a) CHECK(lp[a].item<double>() == Approx(l[a] - std::log(z)).epsilon(1e-6));
  CHECK(dist->entropy(logits)[0].item<double>() == Approx(entropy).epsilon(1e-6));
  CHECK(dist->mode(logits)[0][0].item<float>() == 1.f);
  // The learner's combined call (one log-softmax) gives the same numbers.
  auto both = dist->log_prob_and_entropy(logits, actions);
  for (int a = 0; a < 3; ++a) {
    CHECK(both.log_prob[a].item<double>() == Approx(l[a] - std::log(z)).epsilon(1e-6));
    CHECK(both.entropy[a].item<double>() == Approx(entropy).epsilon(1e-6));
  }
}

TEST_CASE("categorical samples follow the softmax", "[model][distribution]") {
  torch::manual_seed(5);
  auto dist = make_policy_distribution(ActionSpec::discrete(3));
  const int n = 100000;
  auto logits = torch::tensor({0.f, std::log(2.f), std::log(5.f)}).expand({n, 3}).contiguous();  // p = 1/8, 2/8, 5/8
  auto a = dist->sample(logits).view({n}).to(torch::kLong);
  auto counts = torch::bincount(a, {}, 3).to(torch::kFloat64) / n;
  const double p[3] = {1.0 / 8, 2.0 / 8, 5.0 / 8};
  for (int k = 0; k < 3; ++k) CHECK(counts[k].item<double>() == Approx(p[k]).margin(5 * std::sqrt(p[k] / n)));
}

TEST_CASE("gaussian log-prob and entropy match the closed form in double precision", "[model][distribution]") {
  auto dist = make_policy_distribution(ActionSpec::box({-2.f, -1.f}, {2.f, 1.f}));
  REQUIRE(dist->param_size() == 4);
  const double mean[2] = {0.3, -1.2}, log_std[2] = {-0.7, 0.4};
  const double action[2][2] = {{0.1, 0.5}, {2.5, -3.0}};  // the second lies outside the box: no clipping here
  auto params = torch::tensor({mean[0], mean[1], log_std[0], log_std[1]}, torch::kFloat64).view({1, 4}).expand({2, 4});
  auto actions = torch::tensor({action[0][0], action[0][1], action[1][0], action[1][1]}, torch::kFloat64).view({2, 2});
  auto lp = dist->log_prob(params, actions);
  REQUIRE(lp.sizes() == std::vector<std::int64_t>{2});
  for (int r = 0; r < 2; ++r) {
    double expected = 0;
    for (int d = 0; d < 2; ++d) {
      const double sd = std::exp(log_std[d]);
      const double pdf = std::exp(-0.5 * std::pow((action[r][d] - mean[d]) / sd, 2)) / (sd * std::sqrt(2 * kPi));
      expected += std::log(pdf);
    }
    CHECK(lp[r].item<double>() == Approx(expected).epsilon(1e-12));
  }
  double h = 0;
  for (double s : log_std) h += 0.5 * std::log(2 * kPi * std::exp(1.0) * std::exp(2 * s));
  CHECK(dist->entropy(params)[0].item<double>() == Approx(h).epsilon(1e-12));
  auto both = dist->log_prob_and_entropy(params, actions);
  CHECK(both.log_prob[1].item<double>() == Approx(lp[1].item<double>()).epsilon(1e-12));
  CHECK(both.entropy[0].item<double>() == Approx(h).epsilon(1e-12));
  auto mode = dist->mode(params);
  CHECK(mode[0][0].item<double>() == mean[0]);
  CHECK(mode[0][1].item<double>() == mean[1]);
}

TEST_CASE("gaussian samples have the parameterised mean and std", "[model][distribution]") {
  torch::manual_seed(11);
  auto dist = make_policy_distribution(ActionSpec::box({-1.f, -1.f}, {1.f, 1.f}));
  const int n = 200000;
  const double mean[2] = {1.5, -0.5}, sd[2] = {0.5, 2.0};
  auto params = torch::tensor({mean[0], mean[1], std::log(sd[0]), std::log(sd[1])}, torch::kFloat32)
                    .view({1, 1, 4})
                    .expand({n / 100, 100, 4});
  auto a = dist->sample(params).to(torch::kFloat64).view({n, 2});  // unclipped: the box is not applied
  for (int d = 0; d < 2; ++d) {
    auto col = a.select(1, d);
    // Standard errors: sd / sqrt(n) for the mean, about sd / sqrt(2n) for the std.
    CHECK(col.mean().item<double>() == Approx(mean[d]).margin(5 * sd[d] / std::sqrt(n)));
    CHECK(col.std().item<double>() == Approx(sd[d]).margin(5 * sd[d] / std::sqrt(2.0 * n)));
  }
  CHECK(a.select(1, 0).max().item<double>() > 1.0);
}
