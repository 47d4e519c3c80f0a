// --resume in a --logdir: refused in one line when the directory holds no
// checkpoint (a typo must not start a fresh run), and without --config it
// takes the run's settings from LOGDIR/config.toml, the command line winning.
#include <catch2/catch.hpp>

#include <filesystem>

#include "../cli/one_line_error.h"
#include "../cli/run_binary.h"

using namespace seedrl::test;

TEST_CASE("train --resume with no checkpoint in --logdir is refused in one line", "[trainer][resume][cli]") {
  const std::string dir = temp_dir("resume_no_checkpoint");
  const RunResult r = check_one_line_error(
      {"train", "--actors", "2", "--max-frames", "2000", "--logdir", dir, "--resume"}, "--resume: no checkpoint at");
  CHECK_THAT(r.output, Catch::Contains(dir) && Catch::Contains("--logdir"));
  CHECK_FALSE(std::filesystem::exists(std::filesystem::path(dir) / "checkpoint.pt"));
}

TEST_CASE("train --resume without --config takes the run's settings from its config.toml", "[trainer][resume][cli]") {
  const std::string dir = temp_dir("resume_settings");
  const RunResult first = run_seedrl({"train", "--env", "acrobot", "--hidden", "32", "--actors", "2",
                                      "--envs-per-actor", "2", "--max-frames", "3000", "--logdir", dir});
  INFO(first.output);
  REQUIRE(first.status == 0);
  REQUIRE(std::filesystem::exists(std::filesystem::path(dir) / "config.toml"));
  // Neither --env nor --hidden: cartpole's defaults would be refused by the
  // checkpoint; the run's own settings are not.
  const RunResult again = run_seedrl({"train", "--max-frames", "6000", "--logdir", dir, "--resume"});
  INFO(again.output);
  CHECK(again.status == 0);
  CHECK_THAT(again.output, Catch::Contains("--resume: settings from " + dir + "/config.toml") &&
                               Catch::Contains("given on the command line instead: --max-frames"));
  CHECK_THAT(again.output, Catch::Contains("resumed from") && Catch::Contains("env acrobot"));
  // A flag given on the command line still wins, and the checkpoint still
  // refuses what it cannot load.
  const RunResult other = run_seedrl({"train", "--max-frames", "9000", "--hidden", "16", "--logdir", dir, "--resume"});
  CHECK(other.status == 2);
  CHECK_THAT(other.output, Catch::Contains("--hidden"));
}
