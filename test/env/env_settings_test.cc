// The env settings a remote actor and its learner compare: family defaults
// resolved (so an unset flag equals its default written out), only the flags
// of the env's family, and a mismatch named by its first differing flag.
#include <catch2/catch.hpp>

#include "seedrl/env/env_settings.h"

using namespace seedrl;

TEST_CASE("env settings resolve the family's defaults and keep only its flags", "[env][settings]") {
  EnvOptions o;
  CHECK(env_settings("cartpole", o) == "--env cartpole --action-repeat 1 --frame-stack 1 --time-limit 0");
  CHECK(env_settings("minatar:breakout", o) ==
        "--env minatar:breakout --sticky-action-prob 0.1 --difficulty-ramping on --action-repeat 1 --frame-stack 1 "
        "--time-limit 0");
  // Unset and its default spelled out are the same env.
  EnvOptions explicit_default = o;
  explicit_default.sticky_action_prob = 0.1;
  explicit_default.frame_stack = 1;
  CHECK(env_settings("minatar:breakout", explicit_default) == env_settings("minatar:breakout", o));
  EnvOptions other = o;
  other.frame_skip = 2;  // an Atari flag: no part of MinAtar's settings
  other.football_rewards = "scoring";
  CHECK(env_settings("minatar:breakout", other) == env_settings("minatar:breakout", o));
  other.time_limit = 500;
  CHECK(env_settings("minatar:breakout", other) != env_settings("minatar:breakout", o));
}

TEST_CASE("a Football actor holding its shots longer than the learner's is another env", "[env][settings]") {
  EnvOptions o, held;
  held.football_shot_hold = 6;
  const std::string ours = env_settings("football:academy_empty_goal_close", o);
  CHECK(ours.find("--football-shot-hold 1") != std::string::npos);
  CHECK(env_settings_mismatch(env_settings("football:academy_empty_goal_close", held), ours, "the learner's") ==
        "--football-shot-hold 6 differs from the learner's 1");
  CHECK(env_settings("cartpole", held) == env_settings("cartpole", o));  // not a cartpole flag
  EnvOptions mixed = held;
  mixed.football_shot_hold_prob = 0.25;
  CHECK(env_settings_mismatch(env_settings("football:academy_empty_goal_close", mixed),
                              env_settings("football:academy_empty_goal_close", held),
                              "the learner's") == "--football-shot-hold-prob 0.25 differs from the learner's 1");
}

TEST_CASE("a settings mismatch names the first differing flag", "[env][settings]") {
  EnvOptions o, limited;
  limited.time_limit = 200;
  const std::string ours = env_settings("cartpole", o);
  CHECK(env_settings_mismatch(ours, ours, "the learner's").empty());
  CHECK(env_settings_mismatch(env_settings("cartpole", limited), ours, "the learner's") ==
        "--time-limit 200 differs from the learner's 0");
  CHECK(env_settings_mismatch(env_settings("acrobot", o), ours, "the learner's") ==
        "--env acrobot differs from the learner's cartpole");
  // Untrusted text: missing flags, extra ones, odd spacing, a dangling flag.
  CHECK(env_settings_mismatch("--env cartpole", ours, "the learner's") ==
        "its env settings lack --action-repeat (the learner's is 1)");
  CHECK(env_settings_mismatch(ours + " --gravity 20", ours, "the learner's") ==
        "--gravity 20 is not among the learner's env settings");
  CHECK(env_settings_mismatch("  --env   cartpole --action-repeat 1 --frame-stack 1 --time-limit 0 ", ours,
                              "the learner's")
            .empty());
  CHECK(env_settings_mismatch(ours + " --dangling", ours, "the learner's") ==
        "--dangling  is not among the learner's env settings");
}
