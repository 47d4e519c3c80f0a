// --football-shot-hold-prob-final: the chance an episode holds shots moves
// linearly from --football-shot-hold-prob at the run's start to the final
// value at its end, as the actors tell the env the run's progress
// (TrainingProgress), each episode drawing at the progress it starts at.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "seedrl/env/football/football_env.h"
#include "seedrl/env/registry.h"
#include "seedrl/env/training_progress.h"

using namespace seedrl;
using football::FootballEnv;

namespace {

constexpr int kHold = 6;
const std::string kScenario = "academy_empty_goal_close";

std::unique_ptr<FootballEnv> make(double prob, double prob_final) {
  EnvOptions o;
  o.football_shot_hold = kHold;
  o.football_shot_hold_prob = prob;
  o.football_shot_hold_prob_final = prob_final;
  return std::make_unique<FootballEnv>(football::football_config(kScenario, o));
}

// Episodes out of `episodes` that hold shots, each begun at `progress`.
int held_episodes(FootballEnv& env, double progress, int episodes, std::vector<std::uint8_t>& obs) {
  int held = 0;
  for (int e = 0; e < episodes; ++e) {
    set_training_progress(env, progress);
    env.reset(std::nullopt, obs.data());
    held += env.episode_shot_hold() == kHold ? 1 : 0;
  }
  return held;
}

}  // namespace

TEST_CASE("football: --football-shot-hold-prob-final anneals the held episodes' share over the run's progress",
          "[football][engine]") {
  auto env = make(1.0, 0.0);
  std::vector<std::uint8_t> obs(env->spec().observation.bytes());
  env->reset(11, obs.data());
  // The chance: linear in the progress, clamped to the run.
  CHECK(env->shot_hold_prob() == 1.0);  // not told yet: the start
  for (const double at : {0.0, 0.25, 0.5, 1.0, 1.5}) {
    set_training_progress(*env, at);
    CHECK(env->shot_hold_prob() == Approx(1.0 - std::min(at, 1.0)));
  }
  constexpr int kEpisodes = 160;
  CHECK(held_episodes(*env, 0.0, kEpisodes, obs) == kEpisodes);
  // Binomial(160, 0.75): 120 +- 5.5; 4 sigma each side.
  const int quarter = held_episodes(*env, 0.25, kEpisodes, obs);
  INFO("at a quarter of the run " << quarter << " of " << kEpisodes << " held");
  CHECK(quarter >= 98);
  CHECK(quarter <= 142);
  CHECK(held_episodes(*env, 1.0, kEpisodes, obs) == 0);

  // The progress takes effect at the next episode, not in the one under way.
  set_training_progress(*env, 0.0);
  env->reset(std::nullopt, obs.data());
  set_training_progress(*env, 1.0);
  CHECK(env->episode_shot_hold() == kHold);

  // Rising works too, and without a final value the progress changes nothing.
  auto rising = make(0.0, 1.0);
  rising->reset(5, obs.data());
  CHECK(held_episodes(*rising, 1.0, 20, obs) == 20);
  auto constant = make(0.0, -1);
  constant->reset(5, obs.data());
  CHECK(held_episodes(*constant, 1.0, 20, obs) == 0);
  CHECK(constant->shot_hold_prob() == 0.0);
}

TEST_CASE("football: a final shot-hold share out of range is one line naming the flag", "[football][engine]") {
  for (const double bad : {1.5, std::nan("")}) {
    EnvOptions o;
    o.football_shot_hold = kHold;
    o.football_shot_hold_prob_final = bad;
    CHECK_THROWS_WITH(football::football_config(kScenario, o),
                      Catch::StartsWith("--football-shot-hold-prob-final must be in [0, 1]"));
  }
}
