// gfootball's default action set (football_action_set.action_set_v1, the 19
// actions SEED RL trains with) and the engine's numbers for them
// (gfootball_actions.h).
#pragma once

#include <array>

namespace seedrl::football {

constexpr int kNumActions = 19;

struct ActionInfo {
  const char* name;  // gfootball's name
  int engine;        // the engine's Action value
};

constexpr std::array<ActionInfo, kNumActions> kActions{{
    {"idle", 0},        {"left", 1},      {"top_left", 2},           {"top", 3},
    {"top_right", 4},   {"right", 5},     {"bottom_right", 6},       {"bottom", 7},
    {"bottom_left", 8}, {"long_pass", 9}, {"high_pass", 10},         {"short_pass", 11},
    {"shot", 12},       {"sprint", 18},   {"release_direction", 20}, {"release_sprint", 30},
    {"sliding", 14},    {"dribble", 19},  {"release_dribble", 31},
}};

// gfootball's action_set_v2 adds a 20th action: the engine's built-in AI
// plays the controlled player for that step.
constexpr ActionInfo kBuiltinAi{"builtin_ai", 32};

// Engine actions the stalling rule substitutes (FootballEnvCore.step).
constexpr int kEngineIdle = 0, kEngineLeft = 1, kEngineRight = 5, kEngineShortPass = 11;
constexpr int kEngineShot = 12;

}  // namespace seedrl::football
