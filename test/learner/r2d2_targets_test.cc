// R2D2 n-step double Q-learning targets and priorities against independent
// double-precision reference loops, including episode ends (terminated and
// truncated) inside the n-step window.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include <torch/torch.h>

#include "seedrl/env/env_step.h"
#include "seedrl/learner/r2d2/r2d2_learner.h"
#include "seedrl/learner/r2d2/value_rescaling.h"
#include "seedrl/util/rng.h"

using namespace seedrl;
using namespace seedrl::r2d2;

namespace {

// Reference: transition t from entry t; rewards of entries t+1..t+m; stop at
// a terminated entry (no bootstrap), a truncated entry, the n-th step or the
// window's last entry (bootstrap gamma^m h^-1(Q_target(j, argmax Q_online(j)))).
double reference_target(const std::vector<double>& r, const std::vector<int>& flags,
                        const std::vector<std::vector<double>>& qo, const std::vector<std::vector<double>>& qt, int t,
                        double gamma, int n, bool rescaling) {
  const int L = static_cast<int>(r.size());
  double g = 0, d = 1, boot = 0;
  for (int k = 1; k <= n; ++k) {
    const int j = t + k;
    g += d * r[j];
    d *= gamma;
    if (flags[j] & kTerminated) break;
    if ((flags[j] & kTruncated) || k == n || j == L - 1) {
      const auto& q = qo[j];
      const int best = static_cast<int>(std::max_element(q.begin(), q.end()) - q.begin());
      const double v = rescaling ? inverse_value_rescale(qt[j][best]) : qt[j][best];
      boot = d * v;
      break;
    }
  }
  return rescaling ? value_rescale(g + boot) : g + boot;
}

}  // namespace

TEST_CASE("n-step targets match a closed form without episode ends", "[r2d2][targets]") {
  // L = 4 entries, n = 5 > window: 1 + 0.5*2 + 0.25*4 + 0.125*8 = 4.
  auto rewards = torch::tensor({0.f, 1.f, 2.f, 4.f}).view({4, 1});
  auto flags = torch::zeros({4, 1}, torch::kUInt8);
  auto q = torch::zeros({4, 1, 2});
  q[3][0][1] = 8.f;  // the online argmax at entry 3 is action 1, target value 8
  auto tg = n_step_double_q_targets(rewards, flags, q, q, 0.5, 5, /*value_rescaling=*/false);
  CHECK(tg.targets[0][0].item<float>() == Approx(4.0));
  CHECK(tg.targets[2][0].item<float>() == Approx(4 + 0.5 * 8));
  CHECK(tg.valid.sum().item<float>() == Approx(3));
}

TEST_CASE("n-step double-Q targets match a double-precision reference with episode ends", "[r2d2][targets]") {
  const int L = 24, B = 5, A = 3;
  const double gamma = 0.97;
  Rng rng(7);
  for (int n : {1, 3, 5}) {
    for (bool rescaling : {true, false}) {
      std::vector<std::vector<double>> r(B, std::vector<double>(L));
      std::vector<std::vector<int>> f(B, std::vector<int>(L, 0));
      std::vector<std::vector<std::vector<double>>> qo(B, std::vector<std::vector<double>>(L, std::vector<double>(A)));
      auto qt = qo;
      for (int b = 0; b < B; ++b) {
        for (int t = 0; t < L; ++t) {
          r[b][t] = rng.uniform(-2, 5);
          for (int a = 0; a < A; ++a) {
            qo[b][t][a] = rng.uniform(-10, 30);
            qt[b][t][a] = rng.uniform(-10, 30);
          }
        }
        // Episode ends inside windows: a termination, a truncation, and
        // (batch 3) both ends back to back plus one at the last entry.
        auto end_at = [&](int t, int kind) {
          f[b][t] |= kind;
          if (t + 1 < L) f[b][t + 1] |= kFirst;
        };
        end_at(3 + b, kTerminated);
        end_at(11 + b, kTruncated);
        if (b == 3) {
          end_at(18, kTerminated);
          end_at(19, kTruncated);
          end_at(L - 1, kTerminated);
        }
      }
      auto rewards = torch::empty({L, B});
      auto flags = torch::empty({L, B}, torch::kUInt8);
      auto q_online = torch::empty({L, B, A});
      auto q_target = torch::empty({L, B, A});
      for (int b = 0; b < B; ++b)
        for (int t = 0; t < L; ++t) {
          rewards[t][b] = r[b][t];
          flags[t][b] = f[b][t];
          for (int a = 0; a < A; ++a) {
            q_online[t][b][a] = qo[b][t][a];
            q_target[t][b][a] = qt[b][t][a];
          }
        }
      auto tg = n_step_double_q_targets(rewards, flags, q_online, q_target, gamma, n, rescaling);
      REQUIRE(tg.targets.sizes() == torch::IntArrayRef({L - 1, B}));
      for (int b = 0; b < B; ++b) {
        for (int t = 0; t < L - 1; ++t) {
          const bool valid = !(f[b][t] & (kTerminated | kTruncated));
          INFO("n " << n << " rescaling " << rescaling << " b " << b << " t " << t);
          CHECK(tg.valid[t][b].item<float>() == (valid ? 1.f : 0.f));
          if (!valid) continue;
          const double ref = reference_target(r[b], f[b], qo[b], qt[b], t, gamma, n, rescaling);
          CHECK(tg.targets[t][b].item<float>() == Approx(ref).epsilon(1e-5).margin(1e-4));
        }
      }
    }
  }
}

TEST_CASE("tensor value rescaling matches the scalar h and its inverse", "[r2d2][targets]") {
  auto x = torch::linspace(-500, 500, 1001, torch::kFloat64);
  auto hx = rescale(x), hinv = inverse_rescale(x);
  for (int i = 0; i < 1001; i += 37) {
    const double v = x[i].item<double>();
    CHECK(hx[i].item<double>() == Approx(value_rescale(v)).epsilon(1e-12));
    CHECK(hinv[i].item<double>() == Approx(inverse_value_rescale(v)).epsilon(1e-12));
  }
}

TEST_CASE("sequence priorities mix max and mean TD error over valid steps", "[r2d2][priorities]") {
  // Two sequences, T = 4; the masked-out step has a huge error that must not count.
  auto td = torch::tensor({{1.0f, 0.5f}, {3.0f, 100.0f}, {2.0f, 0.5f}, {0.0f, 1.5f}});
  auto valid = torch::tensor({{1.0f, 1.0f}, {1.0f, 0.0f}, {1.0f, 1.0f}, {1.0f, 1.0f}});
  const double eta = 0.9;
  auto p = sequence_priorities(td, valid, eta);
  REQUIRE(p.size() == 2);
  CHECK(p[0] == Approx(0.9 * 3.0 + 0.1 * (6.0 / 4)));
  CHECK(p[1] == Approx(0.9 * 1.5 + 0.1 * (2.5 / 3)));
  // No valid step: priority 0.
  auto p0 = sequence_priorities(td, torch::zeros_like(valid), eta);
  CHECK(p0[0] == 0.0);
}

TEST_CASE("acting-time priority of a new sequence matches a double-precision reference", "[r2d2][priorities]") {
  // One sequence: 2 burn-in entries then 7 entries, n = 3, an episode end inside.
  const int burn = 2, L = 9, A = 3, n = 3;
  const double gamma = 0.97, eta = 0.9;
  Rng rng(5);
  UnrollBatch b;
  b.obs = torch::zeros({L, 1, 1});
  b.actions = torch::empty({L, 1, 1});
  b.rewards = torch::empty({L, 1});
  b.flags = torch::zeros({L, 1}, torch::kUInt8);
  b.policy = torch::empty({L, 1, 1 + A});
  std::vector<double> r(L - burn);
  std::vector<int> flags(L - burn, 0);
  std::vector<std::vector<double>> q(L - burn, std::vector<double>(A));
  std::vector<int> act(L - burn);
  for (int e = 0; e < L; ++e) {
    const bool prefix = e < burn;  // burn-in: wild values that must not count
    b.rewards[e][0] = prefix ? 1000.f : static_cast<float>(rng.uniform(-2, 3));
    b.actions[e][0][0] = static_cast<float>(rng.below(A));
    b.policy[e][0][0] = -1.f;
    for (int a = 0; a < A; ++a) b.policy[e][0][1 + a] = prefix ? -500.f : static_cast<float>(rng.uniform(-1, 4));
  }
  b.flags[5][0] = kTerminated;  // entry 5 ends an episode, entry 6 starts the next
  b.flags[6][0] = kFirst;
  for (int w = 0; w < L - burn; ++w) {
    const int e = w + burn;
    r[w] = b.rewards[e][0].item<float>();
    flags[w] = b.flags[e][0].item<int>();
    act[w] = static_cast<int>(b.actions[e][0][0].item<float>());
    for (int a = 0; a < A; ++a) q[w][a] = b.policy[e][0][1 + a].item<float>();
  }
  double max_td = 0, sum_td = 0;
  int count = 0;
  for (int t = 0; t + 1 < L - burn; ++t) {
    if (flags[t] & (kTerminated | kTruncated)) continue;
    const double td = std::abs(reference_target(r, flags, q, q, t, gamma, n, true) - q[t][act[t]]);
    max_td = std::max(max_td, td);
    sum_td += td;
    ++count;
  }
  REQUIRE(count == L - burn - 2);  // the transition out of the episode's last entry is not one
  const double expected = eta * max_td + (1 - eta) * sum_td / count;
  VTraceLossConfig loss;
  loss.discount = gamma;
  CHECK(acting_priority(b, burn, loss, n, eta) == Approx(expected).epsilon(1e-5));
}
