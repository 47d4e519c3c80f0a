// --football-shot-hold N: one agent step of `shot` is the plain env's shot
// pressed N engine steps running (rewards summed, cut short by the episode's
// end), checked against gfootball's one-step actions on the same engine seed.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "seedrl/env/football/football_env.h"
#include "seedrl/env/registry.h"

using namespace seedrl;
using football::FootballEnv;

namespace {

constexpr int kRight = 5, kShot = 12, kSprint = 13;

std::unique_ptr<FootballEnv> make(const std::string& scenario, int shot_hold) {
  EnvOptions o;
  o.football_shot_hold = shot_hold;
  return std::make_unique<FootballEnv>(football::football_config(scenario, o));
}

StepResult act(Env& env, int a, std::vector<std::uint8_t>& obs) {
  Action action;
  action.index = a;
  return env.step(action, obs.data());
}

}  // namespace

TEST_CASE("football: a held shot is the plain shot pressed N steps running", "[football][engine]") {
  constexpr int kHold = 6;
  const std::string scenario =
      GENERATE(as<std::string>{}, "academy_run_to_score_with_keeper", "academy_empty_goal_close");
  auto held = make(scenario, kHold);
  auto plain = make(scenario, 1);
  std::vector<std::uint8_t> obs_held(held->spec().observation.bytes()), obs_plain(obs_held.size());
  int shots = 0, goals = 0, cut_short = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    held->reset(seed, obs_held.data());
    plain->reset(seed, obs_plain.data());
    REQUIRE(obs_held == obs_plain);
    bool shot = false;
    StepResult r;
    for (int t = 0; t < 400 && !r.terminated && !r.truncated; ++t) {
      // Sprint at the goal and shoot once past x = 0.7, then run on.
      const int a = t == 0 ? kSprint : !shot && held->state().ball[0] > 0.7f ? kShot : kRight;
      r = act(*held, a, obs_held);
      double plain_reward = 0;
      StepResult p;
      int pressed = 0;
      do {
        p = act(*plain, a, obs_plain);
        plain_reward += p.reward;
        ++pressed;
      } while (a == kShot && pressed < kHold && !p.terminated && !p.truncated);
      INFO(scenario << " seed " << seed << " step " << t << " action " << a);
      CHECK(r.reward == Approx(plain_reward).margin(1e-6));
      CHECK(r.terminated == p.terminated);
      CHECK(r.truncated == p.truncated);
      REQUIRE(obs_held == obs_plain);
      if (a == kShot) {
        shot = true;
        ++shots;
        if (pressed < kHold) ++cut_short;
      }
    }
    if (held->state().left_goals == 1) ++goals;
  }
  INFO(scenario << ": " << shots << " shots, " << goals << " goals");
  CHECK(shots >= 3);  // the comparison covered the hold itself
  CHECK(goals >= 1);
  INFO("holds cut short by the episode's end: " << cut_short);
}

TEST_CASE("football: --football-shot-hold out of range is one line naming the flag", "[football][engine]") {
  for (const int bad : {0, 31}) {
    EnvOptions o;
    o.football_shot_hold = bad;
    try {
      (void)football::football_config("academy_empty_goal_close", o);
      FAIL("accepted --football-shot-hold " << bad);
    } catch (const std::invalid_argument& e) {
      CHECK(std::string(e.what()).find("--football-shot-hold") != std::string::npos);
    }
  }
}
