// Soft actor-critic's math against double-precision loops written from the
// paper's formulas (Haarnoja et al. 2018): the tanh-squashed Gaussian's
// log-probability (with sech^2 in closed form as the Jacobian), its
// reparameterised gradient against finite differences, the critic target and
// losses, the temperature update's direction and the Polyak step.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <torch/torch.h>

#include "seedrl/learner/sac/sac_losses.h"
#include "seedrl/model/squashed_gaussian.h"

using namespace seedrl::sac;

namespace {

// log(1 - tanh(u)^2) = log sech(u)^2 = log 4 - 2 log(e^u + e^-u), in long double.
long double ref_log_jacobian(long double u) { return std::log(4.0L) - 2.0L * std::log(std::exp(u) + std::exp(-u)); }

// log pi(tanh(u)) for u = mean + exp(log_std) * noise, one action.
double ref_log_prob(const std::vector<double>& mean, const std::vector<double>& log_std,
                    const std::vector<double>& noise) {
  long double total = 0;
  for (std::size_t i = 0; i < mean.size(); ++i) {
    const long double ls = std::clamp<long double>(log_std[i], kMinLogStd, kMaxLogStd);
    const long double sd = std::exp(ls);
    const long double u = mean[i] + sd * noise[i];
    const long double z = (u - mean[i]) / sd;
    const long double gaussian = -0.5L * z * z - std::log(sd) - 0.5L * std::log(2.0L * 3.14159265358979323846L);
    total += gaussian - ref_log_jacobian(u);
  }
  return static_cast<double>(total);
}

torch::Tensor tensor(const std::vector<double>& v, std::vector<std::int64_t> shape, torch::Dtype dtype) {
  return torch::tensor(v, torch::kFloat64).reshape(shape).to(dtype);
}

std::vector<double> values(const torch::Tensor& t) {
  const torch::Tensor c = t.to(torch::kFloat64).contiguous().reshape({-1});
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

}  // namespace

TEST_CASE("SAC: the squashed Gaussian's log-probability matches the paper's formula", "[learner][sac]") {
  // Four actions of three dims, from moderate to saturated (u up to ~12, where
  // tanh(u) rounds to 1 in float and 1 - tanh^2 to 0), and a clamped log-std.
  const std::vector<double> mean = {0.1, -0.5, 2.0, 0.0, 0.0, 0.0, 3.0, -4.0, 1.0, 11.0, -12.0, 0.3};
  const std::vector<double> log_std = {-1.0, 0.0, 0.5, -30.0, 5.0, 1.0, -0.3, 0.2, -2.0, 0.0, 0.0, -1.0};
  const std::vector<double> noise = {0.3, -1.2, 0.8, 2.0, 1.5, -0.7, 0.0, 1.1, -2.5, 0.5, -0.5, 0.9};
  for (const auto dtype : {torch::kFloat64, torch::kFloat32}) {
    const SquashedSample s =
        squashed_sample(tensor(mean, {4, 3}, dtype), tensor(log_std, {4, 3}, dtype), tensor(noise, {4, 3}, dtype));
    REQUIRE(s.log_prob.sizes() == torch::IntArrayRef({4}));
    const auto got = values(s.log_prob);
    const auto actions = values(s.action);
    for (int b = 0; b < 4; ++b) {
      const std::vector<double> m(mean.begin() + 3 * b, mean.begin() + 3 * b + 3);
      const std::vector<double> l(log_std.begin() + 3 * b, log_std.begin() + 3 * b + 3);
      const std::vector<double> n(noise.begin() + 3 * b, noise.begin() + 3 * b + 3);
      const double want = ref_log_prob(m, l, n);
      INFO("action " << b << " dtype " << dtype);
      CHECK(std::isfinite(got[b]));
      CHECK(got[b] == Approx(want).epsilon(dtype == torch::kFloat64 ? 1e-12 : 2e-6));
      for (int i = 0; i < 3; ++i) {
        const double sd = std::exp(std::clamp(l[i], kMinLogStd, kMaxLogStd));
        CHECK(actions[3 * b + i] == Approx(std::tanh(m[i] + sd * n[i])).margin(1e-6));
      }
    }
  }
}

TEST_CASE("SAC: the stable log(1 - tanh^2) holds where the direct form fails", "[learner][sac]") {
  const std::vector<double> us = {-40.0, -12.0, -3.0, -0.5, 0.0, 0.5, 3.0, 12.0, 40.0};
  const auto got = values(log_one_minus_tanh_squared(torch::tensor(us, torch::kFloat32)));
  for (std::size_t i = 0; i < us.size(); ++i) {
    INFO("u = " << us[i]);
    CHECK(std::isfinite(got[i]));
    CHECK(got[i] == Approx(static_cast<double>(ref_log_jacobian(us[i]))).epsilon(1e-6));
  }
}

TEST_CASE("SAC: the reparameterised sample's gradient matches finite differences", "[learner][sac]") {
  // The actor's objective for one state, alpha log pi(a) - Q(a) with Q(a) = sum(c * a):
  // its gradient through the sample, against central differences in double precision.
  const double alpha = 0.2;
  const std::vector<double> c = {1.5, -0.5, 2.0};
  auto objective = [&](const torch::Tensor& mean, const torch::Tensor& log_std, const torch::Tensor& noise) {
    const SquashedSample s = squashed_sample(mean, log_std, noise);
    return alpha * s.log_prob.sum() - (s.action * torch::tensor(c, torch::kFloat64)).sum();
  };
  const std::vector<double> m0 = {0.2, -0.7, 1.3}, l0 = {-0.5, 0.1, -1.0}, n0 = {0.4, -1.1, 0.6};
  auto mean = torch::tensor(m0, torch::kFloat64).requires_grad_(true);
  auto log_std = torch::tensor(l0, torch::kFloat64).requires_grad_(true);
  const auto noise = torch::tensor(n0, torch::kFloat64);
  objective(mean, log_std, noise).backward();
  const auto g_mean = values(mean.grad()), g_log_std = values(log_std.grad());
  const double h = 1e-6;
  for (int i = 0; i < 3; ++i) {
    for (int which = 0; which < 2; ++which) {
      std::vector<double> plus_m = m0, minus_m = m0, plus_l = l0, minus_l = l0;
      (which == 0 ? plus_m : plus_l)[i] += h;
      (which == 0 ? minus_m : minus_l)[i] -= h;
      const double up = objective(torch::tensor(plus_m, torch::kFloat64), torch::tensor(plus_l, torch::kFloat64), noise)
                            .item<double>();
      const double down =
          objective(torch::tensor(minus_m, torch::kFloat64), torch::tensor(minus_l, torch::kFloat64), noise)
              .item<double>();
      INFO("dim " << i << (which == 0 ? " mean" : " log_std"));
      CHECK((which == 0 ? g_mean : g_log_std)[i] == Approx((up - down) / (2 * h)).epsilon(1e-6));
    }
  }
}

TEST_CASE("SAC: critic target and losses match a double loop, and truncation bootstraps", "[learner][sac]") {
  // float32 takes the CPU's loop for the target, double LibTorch's tensor ops.
  const auto dtype = GENERATE(torch::kFloat32, torch::kFloat64);
  INFO("dtype " << dtype);
  torch::manual_seed(5);
  const int n = 64;
  const auto reward = torch::randn({n}), q1n = torch::randn({n}) * 3, q2n = torch::randn({n}) * 3;
  const auto logpn = torch::randn({n}) - 1, q1 = torch::randn({n}), q2 = torch::randn({n});
  auto terminal = (torch::rand({n}) < 0.2).to(torch::kFloat32);
  const auto alpha = torch::tensor(0.37f);
  const double discount = std::pow(0.99, 3);  // 3-step transitions
  const auto target_of = [&](const torch::Tensor& d) {
    return critic_target(reward.to(dtype), terminal.to(dtype), d, q1n.to(dtype), q2n.to(dtype), logpn.to(dtype),
                         alpha.to(dtype));
  };
  const auto yd = target_of(torch::tensor(discount));
  CHECK_FALSE(yd.requires_grad());
  REQUIRE(yd.scalar_type() == dtype);
  // A discount per transition (n-step transitions cut short by an episode's end) as the learner passes it.
  CHECK(torch::allclose(target_of(torch::full({n}, discount, torch::dtype(dtype))), yd, 1e-6, 1e-6));
  const auto y = yd.to(torch::kFloat32);
  const auto R = values(reward), T = values(terminal), A = values(q1n), B = values(q2n), L = values(logpn);
  const auto Q1 = values(q1), Q2 = values(q2), Y = values(y);
  double loss = 0, q1_half = 0;
  for (int i = 0; i < n; ++i) {
    const double want = R[i] + discount * (1 - T[i]) * (std::min(A[i], B[i]) - 0.37 * L[i]);
    CHECK(Y[i] == Approx(want).epsilon(1e-5).margin(1e-5));
    if (T[i] == 1) CHECK(Y[i] == Approx(R[i]).margin(1e-6));  // an env's end: no bootstrap
    loss += 0.5 * ((Q1[i] - want) * (Q1[i] - want) + (Q2[i] - want) * (Q2[i] - want)) / n;
    q1_half += 0.5 * (Q1[i] - want) * (Q1[i] - want) / n;
  }
  CHECK(critic_loss(q1, q2, y).item<double>() == Approx(loss).epsilon(1e-5));
  CHECK(critic_half_loss(q1, y).item<double>() == Approx(q1_half).epsilon(1e-5));
  // The hand-written gradient is autograd's of the half loss.
  const auto q1_leaf = q1.clone().requires_grad_(true);
  critic_half_loss(q1_leaf, y).backward();
  CHECK(torch::allclose(critic_half_loss_grad(q1, y), q1_leaf.grad(), 1e-6, 1e-8));

  // The actor's loss: alpha log pi - min Q, alpha held fixed.
  double actor = 0;
  for (int i = 0; i < n; ++i) actor += (0.37 * L[i] - std::min(Q1[i], Q2[i])) / n;
  auto a = alpha.clone().requires_grad_(true);
  auto q1_grad = q1.clone().requires_grad_(true);
  const auto al = actor_loss(logpn, q1_grad, q2, a);
  CHECK(al.item<double>() == Approx(actor).epsilon(1e-5));
  al.backward();
  CHECK(q1_grad.grad().defined());
  CHECK_FALSE(a.grad().defined());  // the actor's step does not move the temperature
}

TEST_CASE("SAC: the temperature rises when the entropy is below its target and falls above it", "[learner][sac]") {
  const double target_entropy = -3.0;  // -dim for a 3-dim action
  for (const double entropy : {-5.0, -1.0}) {
    // log pi = -entropy for every sample.
    const auto log_prob = torch::full({32}, -entropy, torch::kFloat64);
    auto log_alpha = torch::tensor(std::log(0.2), torch::kFloat64).requires_grad_(true);
    const auto loss = temperature_loss(log_alpha, log_prob, target_entropy);
    // d loss / d log_alpha = -(log pi + target_entropy) = entropy - target_entropy.
    CHECK(loss.item<double>() == Approx(-std::log(0.2) * (-entropy + target_entropy)));
    loss.backward();
    CHECK(log_alpha.grad().item<double>() == Approx(entropy - target_entropy));
    const double step = -0.1 * log_alpha.grad().item<double>();  // one SGD step
    INFO("entropy " << entropy);
    if (entropy < target_entropy)
      CHECK(step > 0);  // too little exploration: alpha up
    else
      CHECK(step < 0);
  }
}

TEST_CASE("SAC: the Polyak step and the box mapping match the closed forms", "[learner][sac]") {
  torch::manual_seed(9);
  std::vector<torch::Tensor> online = {torch::randn({4, 3}), torch::randn({3})};
  std::vector<torch::Tensor> target = {torch::randn({4, 3}), torch::randn({3})};
  const auto before_o = values(online[0]), before_t = values(target[0]);
  const auto bias_o = values(online[1]), bias_t = values(target[1]);
  polyak_update(online, target, 0.005);
  const auto after = values(target[0]), bias_after = values(target[1]);
  for (std::size_t i = 0; i < after.size(); ++i)
    CHECK(after[i] == Approx(0.005 * before_o[i] + 0.995 * before_t[i]).epsilon(1e-6));
  for (std::size_t i = 0; i < bias_after.size(); ++i)
    CHECK(bias_after[i] == Approx(0.005 * bias_o[i] + 0.995 * bias_t[i]).epsilon(1e-6));
  CHECK(values(online[0]) == before_o);  // the online network is left as it was
  CHECK_THROWS(polyak_update(online, {target[0]}, 0.5));

  const auto low = torch::tensor({-2.0, 0.0}), high = torch::tensor({2.0, 1.0});
  const auto ends = values(to_box(torch::tensor({-1.0, 1.0}), low, high));
  CHECK(ends[0] == -2.0);
  CHECK(ends[1] == 1.0);
  const auto mid = torch::tensor({0.25, -0.5});
  CHECK(values(from_box(to_box(mid, low, high), low, high))[0] == Approx(0.25));
  CHECK(values(from_box(to_box(mid, low, high), low, high))[1] == Approx(-0.5));
  CHECK(values(squashed_mode(torch::tensor({0.0, 100.0})))[0] == 0.0);
}
