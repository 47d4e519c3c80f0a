// V-trace against an independent double-precision reference written from the
// paper's definition (a sum over future TD errors, not the recursion), on
// random unrolls with terminations and truncations inside them.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <vector>

#include <torch/torch.h>

#include "seedrl/env/env_step.h"
#include "seedrl/learner/vtrace/vtrace.h"
#include "seedrl/learner/vtrace_learner.h"

using namespace seedrl;

namespace {

struct Unroll {
  int T, B;
  std::vector<std::vector<std::uint8_t>> flags;  // [T+1][B]
  std::vector<std::vector<double>> rewards;      // [T+1][B], reward stored with the entry
  std::vector<std::vector<double>> values;       // [T+1][B], V(x_t); V(x_T) bootstraps
  std::vector<std::vector<double>> log_rhos;     // [T][B]
};

Unroll random_unroll(int T, int B, std::mt19937& gen) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_real_distribution<double> p(0, 1);
  Unroll x{T, B, {}, {}, {}, {}};
  x.flags.assign(T + 1, std::vector<std::uint8_t>(B, 0));
  x.rewards.assign(T + 1, std::vector<double>(B));
  x.values.assign(T + 1, std::vector<double>(B));
  x.log_rhos.assign(T, std::vector<double>(B));
  for (int b = 0; b < B; ++b) {
    for (int t = 0; t <= T; ++t) {
      x.rewards[t][b] = 2 * u(gen);
      x.values[t][b] = 3 * u(gen);
      if (t < T) x.log_rhos[t][b] = 1.5 * u(gen);
      // Episode ends: the entry after a last step is a reset with reward 0.
      if (t > 0 && (x.flags[t - 1][b] & (kTerminated | kTruncated))) {
        x.flags[t][b] = kFirst;
        x.rewards[t][b] = 0;
      } else {
        const double r = p(gen);
        if (r < 0.12)
          x.flags[t][b] = kTerminated;
        else if (r < 0.2)
          x.flags[t][b] = kTruncated;
      }
    }
  }
  return x;
}

struct VtraceReference {
  std::vector<std::vector<double>> vs, adv;
  std::vector<std::vector<double>> adv_unweighted;  // adv without the ρ^pg weight
};

// vs_s = V(x_s) + sum_{t>=s} (prod_{i=s}^{t-1} γ_i c_i) δ_t, where the sum
// runs along the transitions of the episode that exist in the unroll.
VtraceReference reference(const Unroll& x, double gamma, double rho_bar, double c_bar, double lambda,
                          double pg_rho_bar) {
  const int T = x.T, B = x.B;
  VtraceReference r;
  r.vs.assign(T, std::vector<double>(B));
  r.adv.assign(T, std::vector<double>(B));
  r.adv_unweighted.assign(T, std::vector<double>(B));
  auto last = [&](int t, int b) { return (x.flags[t][b] & (kTerminated | kTruncated)) != 0; };
  auto disc = [&](int t, int b) { return (x.flags[t + 1][b] & kTerminated) ? 0.0 : gamma; };
  auto delta = [&](int t, int b) {
    const double rho = std::min(rho_bar, std::exp(x.log_rhos[t][b]));
    return rho * (x.rewards[t + 1][b] + disc(t, b) * x.values[t + 1][b] - x.values[t][b]);
  };
  for (int b = 0; b < B; ++b) {
    for (int s = 0; s < T; ++s) {
      double v = x.values[s][b];
      if (!last(s, b)) {
        double coef = 1.0;
        for (int t = s; t < T && !last(t, b); ++t) {
          v += coef * delta(t, b);
          coef *= disc(t, b) * lambda * std::min(c_bar, std::exp(x.log_rhos[t][b]));
        }
      }
      r.vs[s][b] = v;
    }
    for (int s = 0; s < T; ++s) {
      if (last(s, b)) {
        r.adv[s][b] = r.adv_unweighted[s][b] = 0;
        continue;
      }
      // vs_{s+1}: the target at the next entry, V(x_T) at the end.
      double next = s + 1 < T ? r.vs[s + 1][b] : x.values[T][b];
      if (s + 1 < T && last(s + 1, b)) next = x.values[s + 1][b];
      const double rho = std::min(pg_rho_bar, std::exp(x.log_rhos[s][b]));
      r.adv_unweighted[s][b] = x.rewards[s + 1][b] + disc(s, b) * next - x.values[s][b];
      r.adv[s][b] = rho * r.adv_unweighted[s][b];
    }
  }
  return r;
}

torch::Tensor to_tensor(const std::vector<std::vector<double>>& v, int rows) {
  const int cols = static_cast<int>(v[0].size());
  auto t = torch::empty({rows, cols}, torch::kFloat32);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) t[i][j] = static_cast<float>(v[i][j]);
  return t;
}

}  // namespace

TEST_CASE("v-trace matches a double-precision reference across episode ends", "[learner][vtrace]") {
  // Both implementations: the CPU loop vtrace() uses here and the tensor-op
  // one it uses on accelerators.
  using Impl = VTraceReturns (*)(const torch::Tensor&, const torch::Tensor&, const torch::Tensor&, const torch::Tensor&,
                                 const torch::Tensor&, const torch::Tensor&, const VTraceOptions&);
  const auto [name, impl] = GENERATE(table<const char*, Impl>(
      {{"vtrace (CPU loop)", &vtrace}, {"vtrace_loop", &vtrace_loop}, {"vtrace_tensor_ops", &vtrace_tensor_ops}}));
  INFO(name);
  std::mt19937 gen(42);
  struct Params {
    double gamma, rho_bar, c_bar, lambda, pg_rho_bar;
  };
  const Params cases[] = {{0.99, 1.0, 1.0, 1.0, 1.0}, {0.9, 2.0, 0.5, 0.95, 1.5}, {0.5, 0.8, 1.2, 0.7, 0.6}};
  for (const auto& c : cases) {
    const int T = 23, B = 17;
    Unroll x = random_unroll(T, B, gen);
    VtraceReference ref = reference(x, c.gamma, c.rho_bar, c.c_bar, c.lambda, c.pg_rho_bar);

    auto flags = torch::empty({T + 1, B}, torch::kUInt8);
    for (int t = 0; t <= T; ++t)
      for (int b = 0; b < B; ++b) flags[t][b] = x.flags[t][b];
    Transitions tr = make_transitions(flags, to_tensor(x.rewards, T + 1), c.gamma, 0.0);
    auto values = to_tensor(x.values, T + 1);
    VTraceOptions o{c.rho_bar, c.c_bar, c.pg_rho_bar, c.lambda};
    auto out = impl(to_tensor(x.log_rhos, T), tr.discounts, tr.rewards, values.slice(0, 0, T), values[T], tr.valid, o);
    auto vs = out.vs.to(torch::kFloat64);
    auto adv = out.pg_advantages.to(torch::kFloat64);
    auto adv_unweighted = out.advantages.to(torch::kFloat64);
    for (int t = 0; t < T; ++t) {
      for (int b = 0; b < B; ++b) {
        INFO("t=" << t << " b=" << b << " flags=" << int(x.flags[t][b]));
        CHECK(vs[t][b].item<double>() == Approx(ref.vs[t][b]).margin(1e-4));
        CHECK(adv[t][b].item<double>() == Approx(ref.adv[t][b]).margin(1e-4));
        CHECK(adv_unweighted[t][b].item<double>() == Approx(ref.adv_unweighted[t][b]).margin(1e-4));
      }
    }
  }
}

TEST_CASE("v-trace on-policy with lambda 1 gives n-step returns", "[learner][vtrace]") {
  // With π = μ and no clipping active, vs_s is the discounted return to the
  // end of the unroll plus the discounted bootstrap value (closed form).
  const int T = 5;
  auto log_rhos = torch::zeros({T, 1});
  auto rewards = torch::tensor({1.0f, 2.0f, 3.0f, 4.0f, 5.0f}).view({T, 1});
  auto discounts = torch::full({T, 1}, 0.9f);
  auto values = torch::tensor({0.5f, -1.0f, 2.0f, 0.0f, 1.0f}).view({T, 1});
  auto bootstrap = torch::tensor({10.0f});
  auto out = vtrace(log_rhos, discounts, rewards, values, bootstrap, torch::ones({T, 1}), VTraceOptions{});
  for (int s = 0; s < T; ++s) {
    double g = 0, k = 1;
    for (int t = s; t < T; ++t, k *= 0.9) g += k * (t + 1);
    g += k * 10.0;
    CHECK(out.vs[s][0].item<double>() == Approx(g).epsilon(1e-5));
  }
}

TEST_CASE("transitions: truncation bootstraps, termination does not, resets are cut", "[learner][vtrace]") {
  // entries: 0 normal, 1 truncated (final obs), 2 reset, 3 terminated, 4 reset
  auto flags =
      torch::tensor({0, int(kTruncated), int(kFirst), int(kTerminated), int(kFirst)}).to(torch::kUInt8).view({5, 1});
  auto rewards = torch::tensor({0.f, 1.f, 0.f, 2.f, 0.f}).view({5, 1});
  Transitions tr = make_transitions(flags, rewards, 0.9, 0.0);
  auto v = tr.valid.flatten(), d = tr.discounts.flatten();
  CHECK(v[0].item<float>() == 1);             // 0 -> 1: into the truncated obs
  CHECK(d[0].item<float>() == Approx(0.9f));  // ... which bootstraps
  CHECK(v[1].item<float>() == 0);             // 1 -> 2: across the reset
  CHECK(d[1].item<float>() == 0);
  CHECK(v[2].item<float>() == 1);  // 2 -> 3: into the terminal obs
  CHECK(d[2].item<float>() == 0);  // ... which does not
  CHECK(v[3].item<float>() == 0);
  CHECK(tr.rewards.flatten()[2].item<float>() == 2.f);
  auto clipped = make_transitions(flags, rewards * 10, 0.9, 1.0);
  CHECK(clipped.rewards.max().item<float>() == 1.f);
  // Scaling applies after clipping: 20 -> 1 -> 0.25.
  auto scaled = make_transitions(flags, rewards * 10, 0.9, 1.0, 0.25);
  CHECK(scaled.rewards.flatten()[2].item<float>() == 0.25f);
  CHECK(make_transitions(flags, rewards, 0.9, 0.0, 0.5).rewards.flatten()[0].item<float>() == 0.5f);
}
