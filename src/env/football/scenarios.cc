// Google Research Football's scenarios as data: gfootball/scenarios/<name>.py
// (all but test_example_multiagent), field by field, numbers as written there.
// test/env/football/scenarios_test.cc checks them against what the unmodified
// builders build (test/env/football/scenarios_reference.txt, made by
// bench/football/dump_scenarios.py). No scenario leaves a team empty; the
// Python Scenario would add a lazy GK at (-1.0, 0.42) to one, and the env
// would have to do the same when it builds the engine's ScenarioConfig.
#include "seedrl/env/football/scenario.h"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <utility>

namespace seedrl::football {
namespace {

using enum Role;
using Team = std::vector<PlayerSetup>;

// The academy builders' settings: 400 steps, no offsides, and the episode
// ends on a goal, the ball going out of play, or the other team winning it.
Scenario academy(const char* name, float ball_x, float ball_y, Team left, Team right) {
  return {.name = name,
          .game_duration = 400,
          .deterministic = false,
          .offsides = false,
          .end_episode_on_score = true,
          .end_episode_on_out_of_play = true,
          .end_episode_on_possession_change = true,
          .ball_x = ball_x,
          .ball_y = ball_y,
          .left = std::move(left),
          .right = std::move(right)};
}

// The 1 vs 1, 5 vs 5 and 11 vs 11 builders: the teams swap sides each episode.
Scenario versus(const char* name, float left_difficulty, float right_difficulty, Team first, Team second) {
  return {.name = name,
          .game_duration = 3000,
          .left_team_difficulty = left_difficulty,
          .right_team_difficulty = right_difficulty,
          .deterministic = false,
          .left = std::move(first),
          .right = std::move(second),
          .swap_each_episode = true};
}

// One line per player, as the builders' AddPlayer calls.
// clang-format off

// The 11 vs 11 builders' first team (the kick-off side) and second team (but
// 11_vs_11_kaggle's, listed in another order); also
// academy_single_goal_versus_lazy's left team.
Team eleven_first() {
  return {
      {-1.000000f, 0.000000f, kGK},
      {0.000000f, 0.020000f, kRM},
      {0.000000f, -0.020000f, kCF},
      {-0.422000f, -0.19576f, kLB},
      {-0.500000f, -0.06356f, kCB},
      {-0.500000f, 0.063559f, kCB},
      {-0.422000f, 0.195760f, kRB},
      {-0.184212f, -0.10568f, kCM},
      {-0.267574f, 0.000000f, kCM},
      {-0.184212f, 0.105680f, kCM},
      {-0.010000f, -0.21610f, kLM},
  };
}

Team eleven_second() {
  return {
      {-1.000000f, 0.000000f, kGK},
      {-0.050000f, 0.000000f, kRM},
      {-0.010000f, 0.216102f, kCF},
      {-0.422000f, -0.19576f, kLB},
      {-0.500000f, -0.06356f, kCB},
      {-0.500000f, 0.063559f, kCB},
      {-0.422000f, 0.195760f, kRB},
      {-0.184212f, -0.10568f, kCM},
      {-0.267574f, 0.000000f, kCM},
      {-0.184212f, 0.105680f, kCM},
      {-0.010000f, -0.21610f, kLM},
  };
}

std::vector<Scenario> build() {
  std::vector<Scenario> s;
  s.push_back(versus("11_vs_11_competition", 1.0f, 1.0f, eleven_first(), eleven_second()));
  s.push_back(versus("11_vs_11_easy_stochastic", 1.0f /* engine default */, 0.05f, eleven_first(), eleven_second()));
  s.push_back(versus("11_vs_11_hard_stochastic", 1.0f /* engine default */, 0.95f, eleven_first(), eleven_second()));
  s.push_back(versus("11_vs_11_kaggle", 1.0f, 1.0f,
                     {
                         {-1.000000f, 0.000000f, kGK},
                         {-0.422000f, -0.19576f, kLB},
                         {-0.500000f, -0.06356f, kCB},
                         {-0.500000f, 0.063559f, kCB},
                         {-0.422000f, 0.195760f, kRB},
                         {-0.184212f, -0.105680f, kCM},
                         {-0.267574f, 0.000000f, kCM},
                         {-0.184212f, 0.10568f, kCM},
                         {-0.010000f, -0.21610f, kLM},
                         {0.000000f, 0.020000f, kCF},
                         {0.000000f, -0.020000f, kRM},
                     },
                     {
                         {-1.000000f, 0.000000f, kGK},
                         {-0.422000f, -0.19576f, kLB},
                         {-0.500000f, -0.06356f, kCB},
                         {-0.500000f, 0.063559f, kCB},
                         {-0.422000f, 0.195760f, kRB},
                         {-0.184212f, -0.105680f, kCM},
                         {-0.267574f, 0.000000f, kCM},
                         {-0.184212f, 0.10568f, kCM},
                         {-0.010000f, -0.21610f, kLM},
                         {-0.050000f, 0.000000f, kCF},
                         {-0.010000f, 0.216102f, kRM},
                     }));
  s.back().second_half = 1500;  // the only builder with a half time
  s.push_back(versus("11_vs_11_stochastic", 1.0f /* engine default */, 0.6f, eleven_first(), eleven_second()));
  s.push_back(versus("1_vs_1_easy", 0.0f, 0.0f, {{-1.000000f, 0.000000f, kGK}}, {{-1.000000f, 0.000000f, kGK}}));
  s.back().game_duration = 500;
  s.push_back(versus("5_vs_5", 0.05f, 0.05f,
                     {
                         {-1.000000f, 0.000000f, kGK, false, false},  // not controllable
                         {0.000000f, 0.020000f, kRM},
                         {0.000000f, -0.020000f, kCF},
                         {-0.1f, -0.1f, kLB},
                         {-0.1f, 0.1f, kCB},
                     },
                     {
                         {-1.000000f, 0.000000f, kGK, false, false},  // not controllable
                         {-0.04f, 0.040000f, kRM},
                         {-0.04f, -0.040000f, kCF},
                         {-0.1f, -0.1f, kLB},
                         {-0.1f, 0.1f, kCB},
                     }));
  s.push_back(academy("academy_3_vs_1_with_keeper", 0.62f, 0.0f,
                      {
                          {-1.0f, 0.0f, kGK},
                          {0.6f, 0.0f, kCM},
                          {0.7f, 0.2f, kCM},
                          {0.7f, -0.2f, kCM},
                      },
                      {
                          {-1.0f, 0.0f, kGK},
                          {-0.75f, 0.0f, kCB},
                      }));
  s.push_back(academy("academy_corner", 0.99f, 0.41f,
                      {
                          {-1.0f, 0.0f, kGK},
                          {1.0f, 0.42f, kLB},
                          {0.7f, 0.15f, kCB},
                          {0.7f, 0.05f, kCB},
                          {0.7f, -0.05f, kRB},
                          {0.0f, 0.0f, kCM},
                          {0.6f, 0.35f, kCM},
                          {0.8f, 0.07f, kCM},
                          {0.8f, -0.03f, kLM},
                          {0.8f, -0.13f, kRM},
                          {0.7f, -0.3f, kCF},
                      },
                      {
                          {-1.0f, 0.0f, kGK},
                          {-0.75f, -0.18f, kLB},
                          {-0.75f, -0.08f, kCB},
                          {-0.75f, 0.02f, kCB},
                          {-1.0f, -0.1f, kRB},
                          {-0.8f, -0.25f, kCM},
                          {-0.88f, -0.07f, kCM},
                          {-0.88f, 0.03f, kCM},
                          {-0.88f, 0.13f, kLM},
                          {-0.75f, 0.25f, kRM},
                          {-0.2f, 0.0f, kCF},
                      }));
  s.back().end_episode_on_possession_change = false;  // the only academy builder that plays on after a turnover
  // academy_counterattack_easy and _hard differ in one right CB's x only.
  auto counterattack = [](const char* name, float cb_x) {
    return academy(name, 0.26f, -0.11f,
                   {
                       {-1.0f, 0.0f, kGK},
                       {-0.672f, -0.19576f, kLB},
                       {-0.75f, -0.06356f, kCB},
                       {-0.75f, 0.063559f, kCB},
                       {-0.672f, 0.19576f, kRB},
                       {-0.434f, -0.10568f, kCM},
                       {-0.434f, 0.10568f, kCM},
                       {0.5f, -0.3161f, kCM},
                       {0.25f, -0.1f, kLM},
                       {0.25f, 0.1f, kRM},
                       {0.35f, 0.316102f, kCF},
                   },
                   {
                       {-1.0f, 0.0f, kGK},
                       {0.128f, -0.19576f, kLB},
                       {cb_x, -0.06356f, kCB},
                       {-0.4f, 0.063559f, kCB},
                       {0.128f, -0.19576f, kRB},  // on the LB's place, as written
                       {0.365f, -0.10568f, kCM},
                       {0.282f, 0.0f, kCM},
                       {0.365f, 0.10568f, kCM},
                       {0.54f, -0.3161f, kLM},
                       {0.51f, 0.0f, kRM},
                       {0.54f, 0.316102f, kCF},
                   });
  };
  s.push_back(counterattack("academy_counterattack_easy", 0.4f));
  s.push_back(counterattack("academy_counterattack_hard", -0.4f));
  // A right GK at (1.0, 0.0) stands at the far end: the goal is empty.
  s.push_back(academy("academy_empty_goal", 0.02f, 0.0f, {{-1.0f, 0.0f, kGK}, {0.0f, 0.0f, kCB}}, {{1.0f, 0.0f, kGK}}));
  s.push_back(
      academy("academy_empty_goal_close", 0.77f, 0.0f, {{-1.0f, 0.0f, kGK}, {0.75f, 0.0f, kCB}}, {{1.0f, 0.0f, kGK}}));
  s.push_back(academy("academy_pass_and_shoot_with_keeper", 0.7f, -0.28f,
                      {{-1.0f, 0.0f, kGK}, {0.7f, 0.0f, kCB}, {0.7f, -0.3f, kCB}},
                      {{-1.0f, 0.0f, kGK}, {-0.75f, 0.3f, kCB}}));
  s.push_back(academy("academy_run_pass_and_shoot_with_keeper", 0.7f, -0.28f,
                      {{-1.0f, 0.0f, kGK}, {0.7f, 0.0f, kCB}, {0.7f, -0.3f, kCB}},
                      {{-1.0f, 0.0f, kGK}, {-0.75f, 0.1f, kCB}}));
  // academy_run_to_score and _with_keeper differ in the right GK's x only.
  auto run_to_score = [](const char* name, float gk_x) {
    return academy(name, 0.02f, 0.0f, {{-1.0f, 0.0f, kGK}, {0.0f, 0.0f, kCB}},
                   {
                       {gk_x, 0.0f, kGK},
                       {0.12f, 0.2f, kLB},
                       {0.12f, 0.1f, kCB},
                       {0.12f, 0.0f, kCM},
                       {0.12f, -0.1f, kCB},
                       {0.12f, -0.2f, kRB},
                   });
  };
  s.push_back(run_to_score("academy_run_to_score", 1.0f));  // the GK at the far end
  s.push_back(run_to_score("academy_run_to_score_with_keeper", -1.0f));
  s.push_back(academy("academy_single_goal_versus_lazy", -0.48f, -0.06356f, eleven_first(),
                      {
                          {-1.000000f, 0.000000f, kGK},        // the only right player that moves
                          {-0.050000f, 0.000000f, kRM, true},
                          {-0.010000f, 0.216102f, kCF, true},
                          {-0.422000f, -0.19576f, kLB, true},
                          {-0.500000f, -0.06356f, kCB, true},
                          {-0.500000f, 0.063559f, kCB, true},
                          {-0.422000f, 0.195760f, kRB, true},
                          {-0.184212f, -0.10568f, kCM, true},
                          {-0.267574f, 0.000000f, kCM, true},
                          {-0.184212f, 0.105680f, kCM, true},
                          {-0.010000f, -0.21610f, kLM, true},
                      }));
  s.back().game_duration = 3000;  // not the academy's 400
  return s;
}
// clang-format on

}  // namespace

const char* role_name(Role r) {
  static constexpr const char* kNames[] = {"GK", "CB", "LB", "RB", "DM", "CM", "LM", "RM", "AM", "CF"};
  const auto i = static_cast<std::size_t>(r);
  return i < std::size(kNames) ? kNames[i] : "?";
}

const std::vector<Scenario>& scenarios() {
  static const std::vector<Scenario> all = build();
  return all;
}

const Scenario* find_scenario(std::string_view name) {
  const auto& all = scenarios();
  auto it = std::find_if(all.begin(), all.end(), [&](const Scenario& s) { return s.name == name; });
  return it == all.end() ? nullptr : &*it;
}

}  // namespace seedrl::football
