// An environment flag that the chosen env's family would ignore (Atari's
// preprocessing for cartpole, --football-obs for MinAtar) is refused in one
// line naming the flag; the families' own flags pass. Atari's and MinAtar's
// on/off settings are switches (--terminal-on-life-loss, --no-difficulty-ramping).
#include <catch2/catch.hpp>

#include <string>

#include <CLI/CLI.hpp>

#include "cartpole_checkpoint.h"
#include "one_line_error.h"
#include "run_binary.h"
#include "seedrl/cli/env_flags.h"

using namespace seedrl;

namespace {

struct EnvFlags {
  CLI::App app;
  EnvOptions options;
  explicit EnvFlags(const std::string& args) {
    add_env_option_flags(app, options);
    app.parse(args);
  }
  std::string error(const std::string& env) const {
    try {
      check_env_family_flags(app, env);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  }
};

}  // namespace

TEST_CASE("an env flag the env's family would ignore is refused, naming the flag and its family", "[cli]") {
  CHECK(EnvFlags("--screen-size 64").error("cartpole") == "--screen-size: Atari only; cartpole would ignore it");
  CHECK(EnvFlags("--frame-skip 2").error("minatar:breakout") ==
        "--frame-skip: Atari only; minatar:breakout would ignore it");
  CHECK(EnvFlags("--football-obs simple115v2").error("minatar:breakout") ==
        "--football-obs: Football only; minatar:breakout would ignore it");
  CHECK(EnvFlags("--sticky-action-prob 0.25").error("mujoco:hopper") ==
        "--sticky-action-prob: MinAtar and Atari only; mujoco:hopper would ignore it");
  CHECK(EnvFlags("--no-difficulty-ramping").error("atari:pong") ==
        "--difficulty-ramping: MinAtar only; atari:pong would ignore it");
  CHECK(EnvFlags("--minimal-action-set").error("pendulum") ==
        "--minimal-action-set: Atari only; pendulum would ignore it");
  CHECK(EnvFlags("--football-rewards scoring").error("cartpole") ==
        "--football-rewards: Football only; cartpole would ignore it");
  CHECK(EnvFlags("--football-rewards scoring,checkpoints").error("mujoco:hopper") ==
        "--football-rewards: Football only; mujoco:hopper would ignore it");
}

TEST_CASE("--football-rewards lists and takes its two choices once each", "[cli]") {
  CHECK(EnvFlags("--football-rewards scoring").options.football_rewards == "scoring");
  CHECK(EnvFlags("--football-rewards scoring,checkpoints").options.football_rewards == "scoring,checkpoints");
  CHECK_THROWS_WITH(EnvFlags("--football-rewards scoring,scoring"),
                    "--football-rewards: 'scoring,scoring' is not one of: scoring | scoring,checkpoints");
  CHECK_THROWS_WITH(EnvFlags("--football-rewards checkpoints"),
                    "--football-rewards: 'checkpoints' is not one of: scoring | scoring,checkpoints");
  const EnvFlags flags("");
  CHECK_THAT(flags.app.get_option("--football-rewards")->get_type_name(),
             Catch::Contains("{scoring | scoring,checkpoints}"));
}

TEST_CASE("each family's own env flags, the wrappers and the machine's paths pass", "[cli]") {
  CHECK(EnvFlags("--screen-size 64 --frame-skip 2 --noop-max 5 --max-episode-frames 1000 --terminal-on-life-loss "
                 "--minimal-action-set --sticky-action-prob 0.25")
            .error("atari:pong")
            .empty());
  CHECK(EnvFlags("--sticky-action-prob 0 --no-difficulty-ramping").error("minatar:breakout").empty());
  CHECK(EnvFlags("--football-obs simple115v2 --football-rewards scoring")
            .error("football:academy_empty_goal_close")
            .empty());
  // Wrappers apply to every env; the machine's paths are passed to every run by scripts.
  CHECK(EnvFlags("--action-repeat 2 --frame-stack 3 --time-limit 100 --rom-dir /tmp").error("cartpole").empty());
  CHECK(EnvFlags("--football-data-dir /tmp --football-font /tmp/font.ttf --accept-unknown-rom")
            .error("cartpole")
            .empty());
}

TEST_CASE("Atari's and MinAtar's on/off settings are switches", "[cli]") {
  // Followed by another flag, a switch takes no value from it.
  EnvFlags on("--terminal-on-life-loss --minimal-action-set");
  CHECK(on.options.terminal_on_life_loss);
  CHECK(on.options.minimal_action_set);
  CHECK(EnvFlags("").options.difficulty_ramping);
  CHECK_FALSE(EnvFlags("--no-difficulty-ramping").options.difficulty_ramping);
  CHECK_FALSE(EnvFlags("--difficulty-ramping=false").options.difficulty_ramping);
}

TEST_CASE("seedrl train and play refuse an env flag their env would ignore in one line", "[cli]") {
  test::check_one_line_error(
      {"train", "--env", "cartpole", "--screen-size", "64", "--logdir", test::temp_dir("cli_env_family_flags")},
      "--screen-size: Atari only; cartpole would ignore it");
  test::check_one_line_error({"play", "--env", "pendulum", "--sticky-action-prob", "0.2", "--episodes", "1"},
                             "--sticky-action-prob: MinAtar and Atari only; pendulum would ignore it");
  test::check_one_line_error({"train", "--env", "pendulum", "--algo", "sac", "--football-rewards", "scoring",
                              "--logdir", test::temp_dir("cli_env_family_rewards")},
                             "--football-rewards: Football only; pendulum would ignore it");
  test::check_one_line_error({"play", "--env", "cartpole", "--football-rewards", "scoring", "--episodes", "1"},
                             "--football-rewards: Football only; cartpole would ignore it");
  test::check_one_line_error({"play", "--env", "cartpole", "--football-rewards", "scoring,scoring"},
                             "--football-rewards: 'scoring,scoring' is not one of: scoring | scoring,checkpoints");
  // A checkpoint brings its env: the check is against that one.
  const std::string checkpoint = test::cartpole_checkpoint(test::temp_dir("cli_env_family_checkpoint"));
  test::check_one_line_error({"eval", "--checkpoint", checkpoint, "--football-rewards", "scoring", "--episodes", "1"},
                             "--football-rewards: Football only; cartpole would ignore it");
  test::check_one_line_error(
      {"play", "--policy", "checkpoint:" + checkpoint, "--football-rewards", "scoring", "--episodes", "1"},
      "--football-rewards: Football only; cartpole would ignore it");
}
