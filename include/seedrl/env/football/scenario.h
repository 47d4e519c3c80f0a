// The scenarios of Google Research Football (gfootball/scenarios/*.py) as
// data: each Python builder's config fields, ball position and line-ups.
// Engine-free; the env turns one into the engine's ScenarioConfig.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace seedrl::football {

// The engine's e_PlayerRole, in its order.
enum class Role : signed char { kGK, kCB, kLB, kRB, kDM, kCM, kLM, kRM, kAM, kCF };
const char* role_name(Role r);  // "GK", ...

struct PlayerSetup {
  float x = 0, y = 0;  // environment coordinates, as the builder's AddPlayer takes them
  Role role = Role::kGK;
  bool lazy = false;         // the engine's AI never moves it
  bool controllable = true;  // an agent may control it
};

struct Scenario {
  std::string name;  // "academy_empty_goal_close", the Python module's name
  // ScenarioConfig fields the builders set; defaults are the engine's.
  int game_duration = 3000;
  int second_half = 999999999;
  float left_team_difficulty = 1.0f;
  float right_team_difficulty = 0.6f;
  bool deterministic = false;
  bool offsides = true;
  bool end_episode_on_score = false;
  bool end_episode_on_out_of_play = false;
  bool end_episode_on_possession_change = false;
  bool control_all_players = false;
  float ball_x = 0, ball_y = 0;  // SetBallPosition (0, 0 when the builder does not call it)
  // The line-ups of episodes with an even gfootball episode number (the
  // first episode of an env is number 2). With `swap_each_episode` (the
  // 1 vs 1, 5 vs 5 and 11 vs 11 builders' EpisodeNumber() % 2) odd episodes
  // swap them: the other side takes the kick-off formation.
  std::vector<PlayerSetup> left, right;
  bool swap_each_episode = false;
};

// Every scenario, in name order.
const std::vector<Scenario>& scenarios();
// The scenario called `name`, or nullptr.
const Scenario* find_scenario(std::string_view name);

}  // namespace seedrl::football
