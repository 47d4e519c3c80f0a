#include "seedrl/env/football/rules.h"

#include <cmath>

#include "seedrl/env/football/actions.h"

namespace seedrl::football {

int stalling_rule(int engine_action, int waiting, const GameState& before) {
  if (waiting == 20) return kEngineShortPass;
  if (waiting < 20) return engine_action;
  // Python: ball_owned_team ^ left_team, i.e. our (left) team has the ball,
  // and our player is the one holding it: walk it right, then left.
  if (before.ball_owned_team == 0 && before.left_controlled == before.ball_owned_player)
    return waiting < 30 ? kEngineRight : kEngineLeft;
  return kEngineIdle;
}

void EpisodeRules::reset() {
  previous_score_diff_ = 0;
  previous_game_mode_ = -1;
  previous_ball_owned_team_ = -1;
}

EpisodeRules::Outcome EpisodeRules::after_step(const Scenario& s, const GameState& now, int& waiting) {
  Outcome o;
  if (s.end_episode_on_score && (now.left_goals > 0 || now.right_goals > 0)) o.ended_by_rule = true;
  const int mode = static_cast<int>(now.game_mode);
  constexpr int kNormal = static_cast<int>(GameMode::kNormal);
  if (s.end_episode_on_out_of_play && mode != kNormal && previous_game_mode_ == kNormal) o.ended_by_rule = true;
  previous_game_mode_ = mode;
  if (s.end_episode_on_possession_change && now.ball_owned_team != -1 && previous_ball_owned_team_ != -1 &&
      now.ball_owned_team != previous_ball_owned_team_)
    o.ended_by_rule = true;
  if (now.ball_owned_team != -1) previous_ball_owned_team_ = now.ball_owned_team;
  const int diff = now.left_goals - now.right_goals;
  o.score_reward = diff - previous_score_diff_;
  previous_score_diff_ = diff;
  waiting = mode != kNormal ? waiting + 1 : 0;
  o.ended_by_time = now.step >= s.game_duration;
  return o;
}

float CheckpointReward::reward(int score_reward, const GameState& s) {
  // numpy 1.x: each += on the float32 reward adds in double, then rounds.
  float r = static_cast<float>(score_reward);
  if (score_reward == 1) {
    r = static_cast<float>(r + kReward * (kCheckpoints - collected_));
    collected_ = kCheckpoints;
    return r;
  }
  if (s.ball_owned_team != 0 || s.ball_owned_player != s.left_controlled) return r;
  const double bx = s.ball[0], by = s.ball[1];
  const double d = std::pow((bx - 1) * (bx - 1) + by * by, 0.5);
  while (collected_ < kCheckpoints) {
    const double threshold = 0.99 - 0.8 / (kCheckpoints - 1) * collected_;
    if (d > threshold) break;
    r = static_cast<float>(r + kReward);
    ++collected_;
  }
  return r;
}

namespace {
// episode_outcome's phrases, in episode_outcomes' order.
constexpr const char* kDrillOutcomes[] = {"goal",        "conceded", "lost to the keeper", "lost to a defender",
                                          "out of play", "time up"};
constexpr const char* kGameOutcomes[] = {"won", "drawn", "lost"};
}  // namespace

std::span<const char* const> episode_outcomes(const Scenario& s) {
  if (!s.end_episode_on_score) return kGameOutcomes;
  return kDrillOutcomes;
}

const char* episode_outcome(const Scenario& s, const GameState& end) {
  if (!s.end_episode_on_score) {
    if (end.left_goals != end.right_goals)
      return end.left_goals > end.right_goals ? kGameOutcomes[0] : kGameOutcomes[2];
    return kGameOutcomes[1];
  }
  if (end.left_goals > 0) return kDrillOutcomes[0];
  if (end.right_goals > 0) return kDrillOutcomes[1];
  if (end.ball_owned_team == 1 && end.ball_owned_player >= 0 && end.ball_owned_player < end.right.count)
    return end.right.players[static_cast<std::size_t>(end.ball_owned_player)].role == 0 ? kDrillOutcomes[2]
                                                                                        : kDrillOutcomes[3];
  if (end.game_mode != GameMode::kNormal) return kDrillOutcomes[4];
  return kDrillOutcomes[5];
}

}  // namespace seedrl::football
