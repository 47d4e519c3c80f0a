// Rollouts for comparing our MinAtar dynamics with the reference
// implementation (test/env/minatar_compare.py drives this). Hidden: run it as
//   SEEDRL_ROLLOUT="minatar:breakout,random,200,1[,sticky[,ramping]]" \
//     seedrl_env_tests "[.rollout]"
// Prints "episode <i> <return> <length>" per episode. Policies: random,
// const<k> (always action k), scripted (a simple per-game controller; the
// script implements the same one on the reference's state()), noisy (the
// scripted one, but a uniform random action with probability 0.25). Both sides cut
// an episode at kCap steps so a good controller cannot play forever.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "seedrl/env/minatar/game.h"
#include "seedrl/env/registry.h"
#include "seedrl/util/rng.h"

using namespace seedrl;

namespace {

struct View {
  const std::uint8_t* obs;
  int channels;
  bool at(int y, int x, int c) const { return obs[(y * 10 + x) * channels + c] != 0; }
};

int breakout_policy(const View& v) {
  int paddle = 0, ball = 0;
  for (int x = 0; x < 10; ++x)
    if (v.at(9, x, 0)) paddle = x;
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 10; ++x)
      if (v.at(y, x, 1)) ball = x;
  return ball < paddle ? 1 : ball > paddle ? 3 : 0;
}

int freeway_policy(const View& v) {
  int y = 9;
  for (int r = 0; r < 10; ++r)
    if (v.at(r, 4, 0)) y = r;
  for (int x = 3; x <= 5; ++x)
    if (y > 0 && v.at(y - 1, x, 1)) return 0;  // wait for the lane above to clear
  return 2;
}

int asterix_policy(const View& v) {
  int py = 0, px = 0;
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 10; ++x)
      if (v.at(y, x, 0)) py = y, px = x;
  for (int x = 0; x < 10; ++x)
    if (v.at(py, x, 1) && std::abs(x - px) <= 2) return py > 1 ? 2 : 4;  // dodge
  int best = 100, gy = -1, gx = -1;
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 10; ++x)
      if (v.at(y, x, 3) && std::abs(y - py) + std::abs(x - px) < best)
        best = std::abs(y - py) + std::abs(x - px), gy = y, gx = x;
  if (gy < 0) return 0;
  if (gy < py) return 2;
  if (gy > py) return 4;
  if (gx < px) return 1;
  if (gx > px) return 3;
  return 0;
}

constexpr long kCap = 3000;

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string f; std::getline(ss, f, ',');) out.push_back(f);
  return out;
}

}  // namespace

TEST_CASE("minatar rollouts for the reference comparison", "[.rollout]") {
  const char* spec = std::getenv("SEEDRL_ROLLOUT");
  if (spec == nullptr) {
    WARN("set SEEDRL_ROLLOUT=name,policy,episodes,seed[,sticky[,ramping]]");
    return;
  }
  const auto f = split(spec);
  REQUIRE(f.size() >= 4);
  EnvOptions options;
  if (f.size() > 4) options.sticky_action_prob = std::stod(f[4]);
  if (f.size() > 5) options.difficulty_ramping = std::stoi(f[5]) != 0;
  auto env = EnvRegistry::builtin().make(f[0], options);
  const std::string policy = f[1];
  const int episodes = std::stoi(f[2]);
  const std::uint64_t seed = std::stoull(f[3]);
  const int channels = static_cast<int>(env->spec().observation.shape[2]);
  std::vector<std::uint8_t> obs(env->spec().observation.bytes());
  Rng policy_rng(derive_seed(seed, 1));
  const View view{obs.data(), channels};

  const bool known = policy == "random" || policy.rfind("const", 0) == 0 ||
                     ((policy == "scripted" || policy == "noisy") &&
                      (f[0] == "minatar:breakout" || f[0] == "minatar:freeway" || f[0] == "minatar:asterix"));
  REQUIRE(known);

  auto choose = [&]() -> int {
    if (policy == "random") return static_cast<int>(policy_rng.below(6));
    if (policy.rfind("const", 0) == 0) return std::stoi(policy.substr(5));
    if (policy == "noisy" && policy_rng.uniform() < 0.25) return static_cast<int>(policy_rng.below(6));
    if (f[0] == "minatar:breakout") return breakout_policy(view);
    if (f[0] == "minatar:freeway") return freeway_policy(view);
    return asterix_policy(view);
  };

  for (int ep = 0; ep < episodes; ++ep) {
    if (ep == 0)
      env->reset(seed, obs.data());
    else
      env->reset(std::nullopt, obs.data());
    double ret = 0;
    long length = 0;
    StepResult r;
    do {
      r = env->step(Action{choose(), nullptr}, obs.data());
      ret += r.reward;
      ++length;
    } while (!r.terminated && !r.truncated && length < kCap);
    std::printf("episode %d %g %ld\n", ep, ret, length);
  }
  std::fflush(stdout);
}
