// `seedrl train --algo r2d2` end to end: a short run with evaluation envs
// writes R2D2's metrics, and --resume continues from its checkpoint (target
// network and optimizer included) with a replay that refills first.
#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "../cli/run_binary.h"

using namespace seedrl::test;

namespace {
// Packed as on a command line.
// clang-format off
const std::vector<std::string> kShortRun = {
    "train", "--algo", "r2d2", "--env", "cartpole", "--actors", "8", "--lstm", "--lstm-size", "16", "--hidden",
    "16", "--unroll-length", "10", "--burn-in", "4", "--sequence-overlap", "5", "--batch-size", "8",
    "--min-replay", "40", "--replay-capacity", "2000", "--replay-ratio", "2", "--eval-envs", "2",
    "--target-update-period", "50", "--log-interval-s", "1", "--seed", "5"};
// clang-format on
}  // namespace

TEST_CASE("an r2d2 run reports replay and evaluation metrics and resumes", "[cli][train][r2d2][slow]") {
  const std::string dir = temp_dir("train_r2d2");
  auto args = kShortRun;
  args.insert(args.end(), {"--max-frames", "15000", "--logdir", dir});
  RunResult r = run_seedrl(args);
  INFO(r.output);
  REQUIRE(r.status == 0);
  auto s = nlohmann::json::parse(read_file(dir + "/summary.json"));
  CHECK(s["frames"].get<double>() >= 15000);
  CHECK(s["learner_steps"].get<double>() > 0);
  CHECK(s["replay_size"].get<double>() >= 40);
  CHECK(s["replay_bytes"].get<double>() > 0);
  CHECK(s["eval_episodes"].get<double>() > 0);
  for (const char* key : {"td_error", "q_mean", "priority_mean", "priority_max", "replay_insert_rate",
                          "replay_sample_rate", "eval_return_mean", "importance_weight_mean"})
    CHECK(s.contains(key));
  // The learner never ran ahead of the replay ratio (2 samples per insert,
  // counted from min-replay, plus one batch).
  CHECK(s["replay_sampled"].get<double>() <= 2 * (s["replay_inserted"].get<double>() - 40) + 8);

  auto resumed = kShortRun;
  resumed.insert(resumed.end(), {"--max-frames", "22000", "--logdir", dir, "--resume"});
  RunResult r2 = run_seedrl(resumed);
  INFO(r2.output);
  REQUIRE(r2.status == 0);
  CHECK_THAT(r2.output, Catch::Contains("resumed from"));
  auto s2 = nlohmann::json::parse(read_file(dir + "/summary.json"));
  CHECK(s2["frames"].get<double>() >= 22000);
  CHECK(s2["learner_steps"].get<double>() > s["learner_steps"].get<double>());

  // The checkpoint plays: its Q-network, greedy, with the core fed the
  // previous action and reward; and through `play --policy checkpoint:`.
  RunResult ev = run_seedrl({"eval", "--checkpoint", dir + "/checkpoint.pt", "--episodes", "3", "--greedy"});
  INFO(ev.output);
  CHECK(ev.status == 0);
  CHECK_THAT(ev.output, Catch::Contains(" episodes | return "));
  RunResult pl = run_seedrl({"play", "--env", "cartpole", "--policy", "checkpoint:" + dir + "/checkpoint.pt",
                             "--episodes", "3", "--seed", "2", "--json"});
  INFO(pl.output);
  CHECK(pl.status == 0);
  CHECK_THAT(pl.output, Catch::Contains("episode_return_mean"));
}

TEST_CASE("an r2d2 run on two CPU inference devices and two learner replicas trains and resumes",
          "[cli][train][r2d2][data_parallel][fleet][slow]") {
  const std::string dir = temp_dir("train_r2d2_dp");
  auto args = kShortRun;
  args.insert(args.end(), {"--inference-devices", "cpu,cpu", "--learner-devices", "cpu,cpu", "--replica-checksum-every",
                           "5", "--logdir", dir});
  auto first = args;
  first.insert(first.end(), {"--max-frames", "15000"});
  RunResult r = run_seedrl(first);
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("inference cpu,cpu (2 batchers) | learner cpu,cpu (data-parallel, 2 replicas)"));
  auto s = nlohmann::json::parse(read_file(dir + "/summary.json"));
  CHECK(s["learner_steps"].get<double>() >= 5);  // at least one replica checksum passed
  CHECK(s["eval_episodes"].get<double>() > 0);   // the eval envs, one on each device, acted

  // Resuming loads replica 0 and syncs the other (then the checksums agree).
  auto resumed = args;
  resumed.insert(resumed.end(), {"--max-frames", "22000", "--resume"});
  RunResult r2 = run_seedrl(resumed);
  INFO(r2.output);
  REQUIRE(r2.status == 0);
  CHECK_THAT(r2.output, Catch::Contains("resumed from"));
  auto s2 = nlohmann::json::parse(read_file(dir + "/summary.json"));
  CHECK(s2["learner_steps"].get<double>() >= s["learner_steps"].get<double>() + 5);
}

TEST_CASE("r2d2 refuses bad sequence settings with one line naming the flag", "[cli][train][r2d2]") {
  RunResult r = run_seedrl({"train", "--algo", "r2d2", "--unroll-length", "10", "--sequence-overlap", "10", "--logdir",
                            temp_dir("r2d2_bad")});
  CHECK(r.status != 0);
  CHECK_THAT(r.output, Catch::Contains("--sequence-overlap"));
  RunResult m =
      run_seedrl({"train", "--algo", "r2d2", "--replay-capacity", "1000000000000", "--logdir", temp_dir("r2d2_mem")});
  CHECK(m.status != 0);
  CHECK_THAT(m.output, Catch::Contains("--replay-capacity"));
}
