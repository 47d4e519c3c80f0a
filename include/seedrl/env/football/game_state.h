// What one Google Research Football step exposes, as gfootball's
// FootballEnvCore._retrieve_observation reads it from the engine: positions
// in the environment's coordinates (x in [-1, 1] from the left goal to the
// right one, y in about [-0.42, 0.42], top to bottom), per step directions,
// the score and the game mode. Plain data, no engine: the observation
// encoders, the rules and the pitch drawing read it.
#pragma once

#include <array>
#include <cstdint>

namespace seedrl::football {

constexpr int kMaxTeamPlayers = 11;

// The engine's e_GameMode, in its order (simple115's one-hot follows it).
enum class GameMode : std::int8_t { kNormal, kKickOff, kGoalKick, kFreeKick, kCorner, kThrowIn, kPenalty };
constexpr int kNumGameModes = 7;

struct PlayerState {
  float x = 0, y = 0;    // position
  float dx = 0, dy = 0;  // movement per step
  float tired = 0;       // 0 fresh .. 1
  bool active = true;    // false after a red card
  bool yellow_card = false;
  std::int8_t role = 0;  // the engine's e_PlayerRole (0 goalkeeper)
};

struct TeamState {
  std::array<PlayerState, kMaxTeamPlayers> players{};
  int count = 0;
  int designated = -1;  // the player the team's first controller would take
};

struct GameState {
  std::array<float, 3> ball{}, ball_direction{}, ball_rotation{};
  TeamState left, right;
  // The player each controlled agent steers (-1: none); left agent 0 is ours.
  int left_controlled = -1;
  int right_controlled = -1;
  int left_goals = 0, right_goals = 0;
  GameMode game_mode = GameMode::kNormal;
  int ball_owned_team = -1;  // -1 nobody, 0 left, 1 right
  int ball_owned_player = -1;
  int step = 0;        // the engine's step counter within the episode
  int steps_left = 0;  // game_duration - step
};

}  // namespace seedrl::football
