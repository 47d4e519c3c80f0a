// Scripted controllers for Seaquest and Space Invaders that read only the
// observation, shared by the rollout test and the golden-trace tests, and
// the golden-trace runner itself. The
// comparison script (minatar_compare_scripted.py) implements the same ones on the
// reference's state(), so any change here must be made there too.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "seedrl/env/env.h"
#include "seedrl/env/registry.h"
#include "seedrl/util/rng.h"

namespace seedrl::minatar_scripted {

struct View {
  const std::uint8_t* obs;
  int channels;
  bool at(int y, int x, int c) const { return obs[(y * 10 + x) * channels + c] != 0; }
  int count_row(int y, int c) const {
    int n = 0;
    for (int x = 0; x < 10; ++x) n += at(y, x, c);
    return n;
  }
};

// Seaquest: surface when low on oxygen or with a full boat (only with a
// diver aboard); dodge enemy bullets in the row, face and shoot the nearest
// enemy in the row, otherwise go for the nearest diver.
inline int seaquest_policy(const View& v) {
  int sy = 0, sx = 0;
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 10; ++x)
      if (v.at(y, x, 0)) sy = y, sx = x;
  const bool facing_right = sx > 0 && v.at(sy, sx - 1, 1);
  const int oxygen = v.count_row(9, 7);
  const int divers = v.count_row(9, 8);
  if (divers > 0 && (oxygen <= 2 || divers == 6)) return 2;
  if (sy == 0) return 4;
  auto enemy = [&](int y, int x) { return v.at(y, x, 5) || v.at(y, x, 6); };
  for (int x = 0; x < 10; ++x)
    if (v.at(sy, x, 4) && std::abs(x - sx) <= 2) return sy < 8 ? 4 : 2;
  for (int d = 1; d < 10; ++d)
    for (int x : {sx - d, sx + d})
      if (x >= 0 && x <= 9 && enemy(sy, x)) {
        if ((x > sx) == facing_right) return 5;
        return x > sx ? 3 : 1;
      }
  int best = 100, ty = -1, tx = -1;
  for (int y = 1; y < 9; ++y)
    for (int x = 0; x < 10; ++x)
      if (v.at(y, x, 9) && std::abs(y - sy) + std::abs(x - sx) < best)
        best = std::abs(y - sy) + std::abs(x - sx), ty = y, tx = x;
  if (ty < 0) return 0;
  if (ty != sy) {
    const int ny = ty < sy ? sy - 1 : sy + 1;
    for (int x = std::max(0, sx - 2); x <= std::min(9, sx + 2); ++x)
      if (enemy(ny, x)) return 0;
    return ty < sy ? 2 : 4;
  }
  return tx < sx ? 1 : tx > sx ? 3 : 0;
}

// Space Invaders: sidestep bullets about to land (and aliens on the bottom
// rows), otherwise line up under the nearest column with aliens and fire.
inline int space_invaders_policy(const View& v) {
  int px = 0;
  for (int x = 0; x < 10; ++x)
    if (v.at(9, x, 0)) px = x;
  auto danger = [&](int x) {
    return v.at(6, x, 5) || v.at(7, x, 5) || v.at(8, x, 5) || v.at(9, x, 1) || v.at(8, x, 1);
  };
  int target = -1;
  for (int d = 0; d < 10 && target < 0; ++d)
    for (int x : {px - d, px + d})
      if (target < 0 && x >= 0 && x <= 9)
        for (int y = 0; y < 10; ++y)
          if (v.at(y, x, 1)) target = x;
  if (danger(px)) {
    const int first = target <= px ? px - 1 : px + 1;
    for (int x : {first, 2 * px - first})
      if (x >= 0 && x <= 9 && !danger(x)) return x < px ? 1 : 3;
    return 0;
  }
  if (target < 0) return 0;
  if (target == px) return 5;
  if (danger(target < px ? px - 1 : px + 1)) return 5;
  return target < px ? 1 : 3;
}

// What the golden-trace tests compare with the reference: summed return and
// length over `episodes` episodes and an FNV-1a hash of every observation
// (cells packed 4 to a nibble), reward and termination along the way. The
// policy ("random", "scripted" or "noisy") draws from Rng(derive_seed(seed, 1))
// exactly as the rollout test does; minatar_compare_scripted.py --golden computes
// the same numbers from the reference driven by a port of our Rng.
struct GoldenSummary {
  double total_return = 0;
  long total_steps = 0;
  std::uint64_t hash = 0xcbf29ce484222325ull;
};

inline GoldenSummary golden_run(Env& env, bool seaquest, const std::string& policy, std::uint64_t seed, int episodes,
                                long cap = 3000) {
  GoldenSummary g;
  std::vector<std::uint8_t> obs(env.spec().observation.bytes());
  const View view{obs.data(), static_cast<int>(env.spec().observation.shape[2])};
  Rng policy_rng(derive_seed(seed, 1));
  auto fold = [&](std::uint64_t v) {
    g.hash ^= v;
    g.hash *= 0x100000001b3ull;
  };
  auto fold_obs = [&] {
    for (std::size_t i = 0; i < obs.size(); i += 4) fold(obs[i] * 8u + obs[i + 1] * 4u + obs[i + 2] * 2u + obs[i + 3]);
  };
  for (int ep = 0; ep < episodes; ++ep) {
    env.reset(ep == 0 ? std::optional<std::uint64_t>(seed) : std::nullopt, obs.data());
    fold_obs();
    long n = 0;
    StepResult r;
    do {
      int a;
      if (policy == "random" || (policy == "noisy" && policy_rng.uniform() < 0.25))
        a = static_cast<int>(policy_rng.below(6));
      else
        a = seaquest ? seaquest_policy(view) : space_invaders_policy(view);
      r = env.step(Action{a, nullptr}, obs.data());
      fold(0x100u + static_cast<std::uint64_t>(r.reward) * 2u + (r.terminated ? 1u : 0u));
      fold_obs();
      g.total_return += r.reward;
      ++n;
    } while (!r.terminated && n < cap);
    g.total_steps += n;
  }
  return g;
}

// One golden-trace case: a policy and options, and what golden_run() must
// give for them (the numbers minatar_compare_scripted.py --golden GAME POLICY STICKY
// RAMPING EPISODES SEED prints from the reference).
struct GoldenCase {
  const char* policy;
  double sticky;
  bool ramping;
  int episodes;
  std::uint64_t seed;
  double total_return;
  long total_steps;
  std::uint64_t hash;
};

template <class Game>
void check_golden_cases(bool seaquest, const std::vector<GoldenCase>& cases) {
  for (const GoldenCase& c : cases) {
    INFO(c.policy << " sticky=" << c.sticky << " ramping=" << c.ramping);
    EnvOptions o;
    o.sticky_action_prob = c.sticky;
    o.difficulty_ramping = c.ramping;
    Game env(o);
    const auto g = golden_run(env, seaquest, c.policy, c.seed, c.episodes);
    CHECK(g.total_return == c.total_return);
    CHECK(g.total_steps == c.total_steps);
    CHECK(g.hash == c.hash);
  }
}

// Every observation and reward of 3000 steps of a random policy (Rng(99))
// from reset(seed), with default options: equal for equal seeds.
template <class Game>
std::vector<std::uint8_t> seeded_trace(std::uint64_t seed) {
  Game env{EnvOptions{}};
  std::vector<std::uint8_t> obs(env.spec().observation.bytes()), all;
  Rng policy(99);
  env.reset(seed, obs.data());
  for (int t = 0; t < 3000; ++t) {
    auto r = env.step(Action{static_cast<int>(policy.below(6)), nullptr}, obs.data());
    all.insert(all.end(), obs.begin(), obs.end());
    all.push_back(static_cast<std::uint8_t>(r.reward));
    if (r.terminated) env.reset(std::nullopt, obs.data());
  }
  return all;
}

}  // namespace seedrl::minatar_scripted
