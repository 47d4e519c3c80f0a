// The parts of gfootball's Python environment that decide what a step
// means, ported from football_env_core.py and wrappers.py:
// - the stalling rule: after 20 steps waiting for a set piece the agent's
//   action is replaced (a short pass, then it is walked off the ball);
// - episode ends: a goal, the ball going out of play, a change of the team
//   in possession (each as the scenario enables it), the game's duration;
// - the scoring reward (goal difference change) and the checkpoint reward
//   (+0.1 for each of 10 distance rings towards the opponent's goal while
//   our player holds the ball, all 10 at once with a goal).
#pragma once

#include <span>

#include "seedrl/env/football/game_state.h"
#include "seedrl/env/football/scenario.h"

namespace seedrl::football {

// The engine action our agent takes given its choice, the engine's waiting
// count and the state before the step (FootballEnvCore.step, left team).
int stalling_rule(int engine_action, int waiting_for_game_count, const GameState& before);

class EpisodeRules {
 public:
  void reset();
  struct Outcome {
    int score_reward = 0;        // +1 we scored, -1 they did
    bool ended_by_rule = false;  // a goal, out of play or possession change ended it
    bool ended_by_time = false;  // the game's duration is up
  };
  // After a step; updates the engine's waiting count as Python does.
  Outcome after_step(const Scenario& scenario, const GameState& now, int& waiting_for_game_count);

 private:
  int previous_score_diff_ = 0;
  int previous_game_mode_ = -1;
  int previous_ball_owned_team_ = -1;
};

// How an episode that ended in state `end` ended, for `seedrl eval`: a drill
// (its episodes end on a goal) by "goal", "conceded", "lost to the keeper",
// "lost to a defender", "out of play" or "time up"; a game (ended by time
// only) by its result for our team, "won", "drawn" or "lost".
const char* episode_outcome(const Scenario& scenario, const GameState& end);
// Every phrase episode_outcome says for `scenario`, drills' or games', in a
// fixed order.
std::span<const char* const> episode_outcomes(const Scenario& scenario);

// wrappers.CheckpointRewardWrapper for one agent.
class CheckpointReward {
 public:
  static constexpr int kCheckpoints = 10;
  static constexpr double kReward = 0.1;

  void reset() { collected_ = 0; }
  // The step's reward with checkpoints added to `score_reward`.
  float reward(int score_reward, const GameState& now);
  int collected() const { return collected_; }

 private:
  int collected_ = 0;
};

}  // namespace seedrl::football
