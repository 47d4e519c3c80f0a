// gfootball's step rules (football_env_core.py, wrappers.py) on made-up
// states, against the Python code's behaviour worked out by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "seedrl/env/football/actions.h"
#include "seedrl/env/football/rules.h"
#include "seedrl/env/football/scenario.h"

using namespace seedrl::football;

namespace {

GameState holding(int team, int owner, int controlled, float bx = 0, float by = 0) {
  GameState s;
  s.ball_owned_team = team;
  s.ball_owned_player = owner;
  s.left_controlled = controlled;
  s.ball = {bx, by, 0.1f};
  return s;
}

Scenario academy() {
  Scenario s;
  s.game_duration = 400;
  s.end_episode_on_score = s.end_episode_on_out_of_play = s.end_episode_on_possession_change = true;
  return s;
}

}  // namespace

TEST_CASE("the stalling rule passes after 20 waiting steps, then walks our ball carrier off", "[football]") {
  const GameState ours = holding(0, 3, 3), theirs = holding(1, 3, 3), other = holding(0, 2, 3);
  for (int w = 0; w < 20; ++w) CHECK(stalling_rule(kActions[12].engine, w, ours) == kActions[12].engine);
  CHECK(stalling_rule(kActions[12].engine, 20, ours) == kEngineShortPass);
  CHECK(stalling_rule(0, 20, theirs) == kEngineShortPass);
  for (int w = 21; w < 30; ++w) CHECK(stalling_rule(kActions[12].engine, w, ours) == kEngineRight);
  for (int w = 30; w < 40; ++w) CHECK(stalling_rule(kActions[12].engine, w, ours) == kEngineLeft);
  // Anyone else holding the ball, or nobody: the agent idles.
  CHECK(stalling_rule(kActions[5].engine, 25, theirs) == kEngineIdle);
  CHECK(stalling_rule(kActions[5].engine, 25, other) == kEngineIdle);
  CHECK(stalling_rule(kActions[5].engine, 35, holding(-1, -1, 3)) == kEngineIdle);
}

TEST_CASE("episode rules: goals, out of play after normal play, possession change, time", "[football]") {
  const Scenario s = academy();
  EpisodeRules rules;
  int waiting = 0;

  SECTION("a set piece on the first step does not end it: the previous mode starts unknown") {
    rules.reset();
    GameState g;
    g.game_mode = GameMode::kKickOff;
    auto o = rules.after_step(s, g, waiting);
    CHECK_FALSE(o.ended_by_rule);
    CHECK(waiting == 1);
    g.game_mode = GameMode::kNormal;
    o = rules.after_step(s, g, waiting);
    CHECK_FALSE(o.ended_by_rule);
    CHECK(waiting == 0);
    g.game_mode = GameMode::kThrowIn;
    o = rules.after_step(s, g, waiting);
    CHECK(o.ended_by_rule);
    CHECK(waiting == 1);
  }
  SECTION("possession changes only between two owning teams, nobody in between counts as no change") {
    rules.reset();
    CHECK_FALSE(rules.after_step(s, holding(0, 1, 1), waiting).ended_by_rule);
    CHECK_FALSE(rules.after_step(s, holding(-1, -1, 1), waiting).ended_by_rule);
    CHECK_FALSE(rules.after_step(s, holding(0, 1, 1), waiting).ended_by_rule);
    CHECK(rules.after_step(s, holding(1, 4, 1), waiting).ended_by_rule);
    Scenario keep = s;
    keep.end_episode_on_possession_change = false;
    rules.reset();
    rules.after_step(keep, holding(0, 1, 1), waiting);
    CHECK_FALSE(rules.after_step(keep, holding(1, 4, 1), waiting).ended_by_rule);
  }
  SECTION("the score reward is the change in goal difference") {
    rules.reset();
    Scenario game = s;
    game.end_episode_on_score = false;
    GameState g;
    CHECK(rules.after_step(game, g, waiting).score_reward == 0);
    g.left_goals = 1;
    CHECK(rules.after_step(game, g, waiting).score_reward == 1);
    CHECK(rules.after_step(game, g, waiting).score_reward == 0);
    g.right_goals = 2;
    CHECK(rules.after_step(game, g, waiting).score_reward == -2);
    CHECK_FALSE(rules.after_step(game, g, waiting).ended_by_rule);
    CHECK(rules.after_step(s, g, waiting).ended_by_rule);  // with end_episode_on_score
  }
  SECTION("the game's duration ends it by time") {
    rules.reset();
    GameState g;
    g.step = 399;
    CHECK_FALSE(rules.after_step(s, g, waiting).ended_by_time);
    g.step = 400;
    CHECK(rules.after_step(s, g, waiting).ended_by_time);
  }
}

TEST_CASE("checkpoint rewards: one per ring reached with the ball, the rest with a goal", "[football]") {
  // Ring k (0..9) is reached at a distance to the goal centre (1, 0) of at
  // most 0.99 - 0.8 k / 9, each worth 0.1, each paid once an episode.
  auto rings_within = [](double d) {
    int n = 0;
    for (int k = 0; k < 10; ++k) n += d <= 0.99 - 0.8 * k / 9 ? 1 : 0;
    return n;
  };
  CheckpointReward c;
  c.reset();
  // Far away: nothing.
  CHECK(c.reward(0, holding(0, 1, 1, -0.5f, 0)) == 0.f);
  // At distance 0.5 (x = 0.5): rings 0..5 at once.
  const int first = rings_within(0.5);
  REQUIRE(first == 6);
  CHECK(c.reward(0, holding(0, 1, 1, 0.5f, 0)) == Approx(0.1 * first).epsilon(1e-6));
  CHECK(c.collected() == first);
  // Back out and in again: paid once.
  CHECK(c.reward(0, holding(0, 1, 1, 0.5f, 0)) == 0.f);
  // Not our controlled player with the ball, or the other team: nothing.
  CHECK(c.reward(0, holding(0, 2, 1, 0.9f, 0)) == 0.f);
  CHECK(c.reward(0, holding(1, 1, 1, 0.9f, 0)) == 0.f);
  // Off-centre distances: (0.8, 0.3) is sqrt(0.13) from the goal.
  CHECK(c.reward(0, holding(0, 1, 1, 0.8f, 0.3f)) ==
        Approx(0.1 * (rings_within(std::sqrt(0.2 * 0.2 + 0.3 * 0.3)) - first)).margin(1e-6));
  // A goal pays the remaining rings with it: a whole episode is worth 2.
  const int before = c.collected();
  CHECK(c.reward(1, holding(-1, -1, 1)) == Approx(1 + 0.1 * (10 - before)).epsilon(1e-6));
  CHECK(c.collected() == 10);
  // A conceded goal takes nothing away.
  CheckpointReward d;
  d.reset();
  CHECK(d.reward(-1, holding(-1, -1, 1)) == -1.f);
  // A goal with no rings collected: 2.
  CHECK(d.reward(1, holding(-1, -1, 1)) == Approx(2.0).epsilon(1e-6));
}

TEST_CASE("episode outcomes: a drill's way of ending, a game's result", "[football]") {
  const Scenario drill = academy();
  GameState end = holding(0, 1, 1);
  end.right.count = 3;
  end.right.players[0].role = 0;  // the keeper
  end.right.players[2].role = 2;

  CHECK(std::string(episode_outcome(drill, end)) == "time up");
  end.game_mode = GameMode::kGoalKick;
  CHECK(std::string(episode_outcome(drill, end)) == "out of play");
  end.game_mode = GameMode::kNormal;
  end.ball_owned_team = 1;
  end.ball_owned_player = 0;
  CHECK(std::string(episode_outcome(drill, end)) == "lost to the keeper");
  end.ball_owned_player = 2;
  CHECK(std::string(episode_outcome(drill, end)) == "lost to a defender");
  end.right_goals = 1;
  CHECK(std::string(episode_outcome(drill, end)) == "conceded");
  end.left_goals = 1;  // a goal ends a drill at once: at most one side scored
  CHECK(std::string(episode_outcome(drill, end)) == "goal");

  Scenario game = drill;
  game.end_episode_on_score = game.end_episode_on_out_of_play = game.end_episode_on_possession_change = false;
  end.left_goals = 2;
  end.right_goals = 1;
  CHECK(std::string(episode_outcome(game, end)) == "won");
  end.right_goals = 2;
  CHECK(std::string(episode_outcome(game, end)) == "drawn");
  end.right_goals = 3;
  CHECK(std::string(episode_outcome(game, end)) == "lost");

  // The phrases each kind can say, listed for training's counts (by index).
  const std::span<const char*const> drills = episode_outcomes(drill), games = episode_outcomes(game);
  CHECK(std::vector<std::string>(drills.begin(), drills.end()) ==
        std::vector<std::string>{"goal", "conceded", "lost to the keeper", "lost to a defender", "out of play",
                                 "time up"});
  CHECK(std::vector<std::string>(games.begin(), games.end()) == std::vector<std::string>{"won", "drawn", "lost"});
  CHECK(std::find(games.begin(), games.end(), episode_outcome(game, end)) != games.end());
  end.left_goals = 1;
  end.right_goals = 0;
  CHECK(std::find(drills.begin(), drills.end(), episode_outcome(drill, end)) != drills.end());
}
