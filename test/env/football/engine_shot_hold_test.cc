// --football-shot-hold N: one agent step of `shot` is the plain env's shot
// pressed N engine steps running (rewards summed, cut short by the episode's
// end), checked against gfootball's one-step actions on the same engine seed;
// with --football-shot-hold-prob P, only in a share P of the episodes.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "seedrl/env/football/football_env.h"
#include "seedrl/env/registry.h"

using namespace seedrl;
using football::FootballEnv;

namespace {

constexpr int kRight = 5, kShot = 12, kSprint = 13;

std::unique_ptr<FootballEnv> make(const std::string& scenario, int shot_hold, double shot_hold_prob = 1) {
  EnvOptions o;
  o.football_shot_hold = shot_hold;
  o.football_shot_hold_prob = shot_hold_prob;
  return std::make_unique<FootballEnv>(football::football_config(scenario, o));
}

StepResult act(Env& env, int a, std::vector<std::uint8_t>& obs) {
  Action action;
  action.index = a;
  return env.step(action, obs.data());
}

// gfootball's one-step actions for one held step of `a`: `shot` pressed
// `hold` steps running (cut short by the episode's end), rewards summed.
struct PlainSteps {
  StepResult result;
  int pressed = 0;
};

PlainSteps act_plain(Env& plain, int a, int hold, std::vector<std::uint8_t>& obs) {
  PlainSteps out;
  StepResult p;
  do {
    p = act(plain, a, obs);
    out.result.reward += p.reward;
    ++out.pressed;
  } while (a == kShot && out.pressed < hold && !p.terminated && !p.truncated);
  out.result.terminated = p.terminated;
  out.result.truncated = p.truncated;
  return out;
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
      const PlainSteps p = act_plain(*plain, a, kHold, obs_plain);
      INFO(scenario << " seed " << seed << " step " << t << " action " << a);
      CHECK(r.reward == Approx(p.result.reward).margin(1e-6));
      CHECK(r.terminated == p.result.terminated);
      CHECK(r.truncated == p.result.truncated);
      REQUIRE(obs_held == obs_plain);
      if (a == kShot) {
        shot = true;
        ++shots;
        if (p.pressed < kHold) ++cut_short;
      }
    }
    if (held->state().left_goals == 1) ++goals;
  }
  INFO(scenario << ": " << shots << " shots, " << goals << " goals");
  CHECK(shots >= 3);  // the comparison covered the hold itself
  CHECK(goals >= 1);
  INFO("holds cut short by the episode's end: " << cut_short);
}

TEST_CASE("football: --football-shot-hold-prob holds shots in that share of episodes, on gfootball's seeds",
          "[football][engine]") {
  constexpr int kHold = 6, kEpisodes = 120;
  const std::string scenario = "academy_empty_goal_close";
  const double prob = GENERATE(0.0, 0.5);
  auto mixed = make(scenario, kHold, prob);
  auto plain = make(scenario, 1);
  std::vector<std::uint8_t> obs_mixed(mixed->spec().observation.bytes()), obs_plain(obs_mixed.size());
  int held_episodes = 0;
  std::vector<int> holds;
  for (int e = 0; e < kEpisodes; ++e) {
    const std::optional<std::uint64_t> seed = e == 0 ? std::optional<std::uint64_t>(7) : std::nullopt;
    mixed->reset(seed, obs_mixed.data());
    plain->reset(seed, obs_plain.data());
    REQUIRE(obs_mixed == obs_plain);  // the draw leaves the engine seeds alone
    const int hold = mixed->episode_shot_hold();
    REQUIRE((hold == 1 || hold == kHold));
    holds.push_back(hold);
    held_episodes += hold == kHold ? 1 : 0;
    if (e % 10 != 0) continue;  // step every tenth episode: the shot is pressed `hold` steps
    StepResult r;
    for (int t = 0; t < 3 && !r.terminated; ++t) {
      const int a = t < 2 ? kRight : kShot;
      r = act(*mixed, a, obs_mixed);
      const PlainSteps p = act_plain(*plain, a, hold, obs_plain);
      INFO("episode " << e << " hold " << hold << " step " << t);
      CHECK(r.reward == Approx(p.result.reward).margin(1e-6));
      CHECK(r.terminated == p.result.terminated);
      REQUIRE(obs_mixed == obs_plain);
    }
  }
  INFO("prob " << prob << ": " << held_episodes << " of " << kEpisodes << " episodes held");
  if (prob == 0.0) {
    CHECK(held_episodes == 0);
  } else {
    // Binomial(120, 0.5): 60 +- 5.5; 3.5 sigma each side.
    CHECK(held_episodes >= 41);
    CHECK(held_episodes <= 79);
    auto again = make(scenario, kHold, prob);  // the same seed draws the same holds
    for (int e = 0; e < kEpisodes; ++e) {
      again->reset(e == 0 ? std::optional<std::uint64_t>(7) : std::nullopt, obs_mixed.data());
      REQUIRE(again->episode_shot_hold() == holds[static_cast<std::size_t>(e)]);
    }
  }
}

TEST_CASE("football: a shot hold or its share out of range is one line naming the flag", "[football][engine]") {
  const auto error = [](int hold, double prob) {
    EnvOptions o;
    o.football_shot_hold = hold;
    o.football_shot_hold_prob = prob;
    try {
      (void)football::football_config("academy_empty_goal_close", o);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  for (const int bad : {0, 31}) CHECK_THAT(error(bad, 1), Catch::StartsWith("--football-shot-hold must"));
  for (const double bad : {-0.1, 1.5, std::nan("")})
    CHECK_THAT(error(6, bad), Catch::StartsWith("--football-shot-hold-prob must"));
}
