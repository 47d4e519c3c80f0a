// A checkpoint's environment, played by eval or play on another machine,
// takes that machine's paths and the chosen Football score, and keeps
// everything else the run trained with.
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "seedrl/cli/env_flags.h"

namespace {

seedrl::EnvOptions run_options() {
  seedrl::EnvOptions run;
  run.football_obs = "simple115v2";
  run.football_rewards = "scoring,checkpoints";
  run.football_shot_hold = 3;
  run.football_shot_hold_prob = 0.5;
  run.football_data_dir = "/trained/on/data";
  run.football_font = "/trained/on/font.ttf";
  run.rom_dir = "/trained/on/roms";
  run.frame_stack = 2;
  return run;
}

seedrl::EnvOptions played_with(std::vector<std::string> args) {
  CLI::App app;
  seedrl::EnvOptions machine;
  seedrl::add_machine_env_flags(app, machine);
  std::reverse(args.begin(), args.end());  // CLI11 takes them last first
  app.parse(args);
  return seedrl::with_machine_env_options(run_options(), machine, app);
}

}  // namespace

TEST_CASE("a checkpoint's environment takes this machine's paths and the chosen score only", "[cli][eval]") {
  SECTION("no flags: the run's options, but not its ROM directory (it named the run's machine)") {
    const auto o = played_with({});
    CHECK(o.rom_dir.empty());
    CHECK(o.football_data_dir == "/trained/on/data");
    CHECK(o.football_font == "/trained/on/font.ttf");
    CHECK(o.football_rewards == "scoring,checkpoints");
    CHECK(o.football_shot_hold == 3);
    CHECK(o.football_shot_hold_prob == 0.5);
    CHECK(o.football_obs == "simple115v2");
    CHECK(o.frame_stack == 2);
  }
  SECTION("every machine flag applies") {
    const auto o = played_with({"--rom-dir", "/here/roms", "--accept-unknown-rom", "--football-data-dir", "/here/data",
                                "--football-font", "/here/font.ttf", "--football-rewards", "scoring",
                                "--football-shot-hold", "6", "--football-shot-hold-prob", "1"});
    CHECK(o.rom_dir == "/here/roms");
    CHECK(o.accept_unknown_rom);
    CHECK(o.football_data_dir == "/here/data");
    CHECK(o.football_font == "/here/font.ttf");
    CHECK(o.football_rewards == "scoring");
    CHECK(o.football_shot_hold == 6);
    CHECK(o.football_shot_hold_prob == 1);
    CHECK(o.football_obs == "simple115v2");
  }
  SECTION("--football-shot-hold given as the default value still replaces the run's") {
    CHECK(played_with({"--football-shot-hold", "1"}).football_shot_hold == 1);
  }
  SECTION("an annealed run plays at the end of its curriculum, unless --football-shot-hold-prob says otherwise") {
    seedrl::EnvOptions run = run_options();
    run.football_shot_hold_prob = 1;
    run.football_shot_hold_prob_final = 0.25;
    const auto play = [&run](std::vector<std::string> args) {
      CLI::App app;
      seedrl::EnvOptions machine;
      seedrl::add_machine_env_flags(app, machine);
      std::reverse(args.begin(), args.end());
      app.parse(args);
      return seedrl::with_machine_env_options(run, machine, app);
    };
    const auto plain = play({});
    CHECK(plain.football_shot_hold_prob == 0.25);
    CHECK(plain.football_shot_hold_prob_final < 0);  // eval and play do not anneal
    const auto own = play({"--football-shot-hold-prob", "0"});
    CHECK(own.football_shot_hold_prob == 0);
    CHECK(own.football_shot_hold_prob_final < 0);
  }
  SECTION("--football-rewards given as the default value still replaces the run's") {
    seedrl::EnvOptions run = run_options();
    run.football_rewards = "scoring";
    CLI::App app;
    seedrl::EnvOptions machine;
    seedrl::add_machine_env_flags(app, machine);
    app.parse(std::vector<std::string>{"scoring,checkpoints", "--football-rewards"});
    CHECK(seedrl::with_machine_env_options(run, machine, app).football_rewards == "scoring,checkpoints");
  }
  SECTION("the names match the flags registered, and no flag that changes the environment is among them") {
    CLI::App app;
    seedrl::EnvOptions machine;
    seedrl::add_machine_env_flags(app, machine);
    std::set<std::string> registered;
    for (const CLI::Option* opt : app.get_options())
      if (opt->get_name() != "--help") registered.insert(opt->get_name());
    CHECK(registered == seedrl::machine_env_flag_names());
    CHECK(registered.count("--football-obs") == 0);
    CHECK(registered.count("--frame-stack") == 0);
  }
}
