// --resume in a --logdir: refused in one line when the directory holds no
// checkpoint (a typo must not start a fresh run); without --config it takes
// the run's settings from LOGDIR/config.toml, the command line winning; and
// it goes on with the run's last-100-episode window and wall time.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "../cli/one_line_error.h"
#include "../cli/run_binary.h"
#include "seedrl/io/checkpoint.h"

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

  // Without its config.toml the run's settings are lost: it is refused,
  // rather than resumed on the defaults of what the checkpoint does not check.
  const std::string checkpoint = seedrl::test::read_file(dir + "/checkpoint.pt");
  std::filesystem::remove(std::filesystem::path(dir) / "config.toml");
  check_one_line_error(
      {"train", "--env", "acrobot", "--hidden", "32", "--max-frames", "9000", "--logdir", dir, "--resume"},
      "--resume: " + dir + "/config.toml is missing or not a file");
  CHECK(seedrl::test::read_file(dir + "/checkpoint.pt") == checkpoint);
}

TEST_CASE("train --resume goes on with the run's episode window and wall time", "[trainer][resume][cli]") {
  const std::string dir = temp_dir("resume_window");
  const RunResult first = run_seedrl({"train", "--max-frames", "20000", "--actors", "2", "--logdir", dir});
  INFO(first.output);
  REQUIRE(first.status == 0);
  const auto before = nlohmann::json::parse(read_file(dir + "/summary.json"));
  const seedrl::CheckpointCounters saved = seedrl::read_checkpoint_header(dir + "/checkpoint.pt").counters;
  // The checkpoint holds the window the summary's mean was taken over.
  REQUIRE(saved.recent_returns.size() == static_cast<std::size_t>(std::min<std::int64_t>(saved.episodes, 100)));
  REQUIRE(saved.recent_lengths.size() == saved.recent_returns.size());
  double sum = 0;
  for (const double r : saved.recent_returns) sum += r;
  CHECK(sum / static_cast<double>(saved.recent_returns.size()) ==
        Approx(before.at("episode_return_mean").get<double>()).epsilon(1e-9));
  CHECK(saved.wall_seconds > 0);
  CHECK(saved.wall_seconds <= before.at("wall_seconds").get<double>() + 1e-9);
  // A resume that ends at once still reports the run's window and time.
  const RunResult again = run_seedrl({"train", "--max-frames", "20001", "--logdir", dir, "--resume"});
  INFO(again.output);
  REQUIRE(again.status == 0);
  const auto after = nlohmann::json::parse(read_file(dir + "/summary.json"));
  CHECK_FALSE(after.at("episode_return_mean").is_null());
  CHECK(after.at("wall_seconds").get<double>() >= saved.wall_seconds);
  CHECK_THAT(again.output, !Catch::Contains("return(100) -"));
}
