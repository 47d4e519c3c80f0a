// What the MinAtar games share: registration, sticky actions, seeding.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "seedrl/env/minatar/game.h"
#include "seedrl/env/registry.h"

using namespace seedrl;
using namespace seedrl::minatar;

namespace {
const char* const kGames[] = {"minatar:breakout", "minatar:freeway", "minatar:asterix"};

// Fraction of steps whose applied action differs from the requested one when
// every request differs from the previously applied action: exactly the
// sticky-action rate.
double sticky_rate(double p, int steps) {
  EnvOptions o;
  o.sticky_action_prob = p;
  auto env = EnvRegistry::builtin().make("minatar:freeway", o);
  auto* game = dynamic_cast<Game*>(env.get());
  REQUIRE(game != nullptr);
  std::vector<std::uint8_t> obs(env->spec().observation.bytes());
  env->reset(17, obs.data());
  int sticky = 0;
  for (int t = 0; t < steps; ++t) {
    const int want = (game->last_action() + 1 + t % 5) % 6;  // never the last one
    if (env->step(Action{want, nullptr}, obs.data()).terminated) env->reset(std::nullopt, obs.data());
    sticky += game->last_action() != want;
  }
  return static_cast<double>(sticky) / steps;
}
}  // namespace

TEST_CASE("minatar games are registered with 6 actions and no time limit", "[minatar]") {
  const int channels[] = {4, 7, 4};
  for (int i = 0; i < 3; ++i) {
    auto env = EnvRegistry::builtin().make(kGames[i]);
    CHECK(env->spec().name == kGames[i]);
    CHECK(env->spec().observation == ArraySpec{{10, 10, channels[i]}, DType::kUInt8});
    CHECK(env->spec().action == ActionSpec::discrete(6));
    CHECK(env->spec().max_episode_steps == 0);
    auto* game = dynamic_cast<Game*>(env.get());
    REQUIRE(game != nullptr);
    CHECK(game->sticky_action_prob() == 0.1);  // the reference's defaults
    CHECK(game->difficulty_ramping());
    std::vector<std::uint8_t> obs(env->spec().observation.bytes());
    env->reset(1, obs.data());
    CHECK_THROWS_AS(env->step(Action{6, nullptr}, obs.data()), std::invalid_argument);
    CHECK_THROWS_AS(env->step(Action{-1, nullptr}, obs.data()), std::invalid_argument);
  }
  EnvOptions o;
  o.sticky_action_prob = 0.25;
  o.difficulty_ramping = false;
  auto env = EnvRegistry::builtin().make("minatar:asterix", o);
  auto* game = dynamic_cast<Game*>(env.get());
  CHECK(game->sticky_action_prob() == 0.25);
  CHECK_FALSE(game->difficulty_ramping());
}

TEST_CASE("minatar sticky actions repeat the previous action at the configured rate", "[minatar]") {
  const int n = 40000;
  for (double p : {0.1, 0.5}) {
    const double sigma = std::sqrt(p * (1 - p) / n);
    CHECK(std::abs(sticky_rate(p, n) - p) < 4.5 * sigma);
  }
  CHECK(sticky_rate(0.0, 5000) == 0.0);
  CHECK(sticky_rate(1.0, 100) == 1.0);  // always the first action: noop
}

TEST_CASE("minatar seeded episodes are reproducible", "[minatar]") {
  for (const char* name : kGames) {
    auto a = EnvRegistry::builtin().make(name);
    auto b = EnvRegistry::builtin().make(name);
    const std::size_t bytes = a->spec().observation.bytes();
    std::vector<std::uint8_t> oa(bytes), ob(bytes);
    auto play = [&](Env& env, std::vector<std::uint8_t>& obs, std::uint64_t seed) {
      std::vector<std::uint8_t> trace;
      env.reset(seed, obs.data());
      trace.insert(trace.end(), obs.begin(), obs.end());
      for (int t = 0; t < 300; ++t) {
        const StepResult r = env.step(Action{(t * 7 + t / 3) % 6, nullptr}, obs.data());
        trace.insert(trace.end(), obs.begin(), obs.end());
        trace.push_back(static_cast<std::uint8_t>(r.reward));
        if (r.terminated) {
          env.reset(std::nullopt, obs.data());
          trace.insert(trace.end(), obs.begin(), obs.end());
        }
      }
      return trace;
    };
    const auto first = play(*a, oa, 42);
    CHECK(play(*b, ob, 42) == first);
    CHECK(play(*a, oa, 42) == first);  // a seeded reset forgets the past
    CHECK(play(*b, ob, 43) != first);
  }
}
