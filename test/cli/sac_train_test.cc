// `seedrl train --algo sac` as a user runs it: a short Pendulum run writes
// SAC's scalars and holds one update per env step after the warm-up, its
// checkpoint evaluates with the deterministic action, exports and resumes
// with its replay; settings SAC cannot honour are one line naming the flag.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "run_binary.h"
#include "seedrl/io/checkpoint.h"

using namespace seedrl::test;

namespace {

std::vector<std::string> sac_run(const std::string& dir, int frames) {
  return {"train",
          "--algo",
          "sac",
          "--env",
          "pendulum",
          "--max-frames",
          std::to_string(frames),
          "--random-steps",
          "200",
          "--min-replay",
          "200",
          "--batch-size",
          "32",
          "--hidden",
          "32,32",
          "--logdir",
          dir,
          "--log-interval-s",
          "0.2",
          "--report-every-s",
          "0"};
}

}  // namespace

TEST_CASE("a short SAC run on Pendulum trains one update per step and writes its scalars", "[cli][train][sac]") {
  const std::string dir = temp_dir("train_sac");
  RunResult r = run_seedrl(sac_run(dir, 1000));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("sac: replay 1000000 transitions") && Catch::Contains("target entropy -1"));
  const auto s = nlohmann::json::parse(read_file(dir + "/summary.json"));
  const double frames = s["frames"].get<double>(), steps = s["learner_steps"].get<double>();
  // --replay-ratio defaults to the batch: one update per transition after the
  // 200 of --min-replay, less the few the learner may trail when the run stops
  // (the limiter's tolerance of 2 updates, the 4 queued, an episode's last
  // entry each, which starts no transition).
  CHECK(steps <= frames + 5 - 200 + 1);
  CHECK(steps >= frames - 200 - 16);
  std::ifstream in(dir + "/metrics.jsonl");
  std::string line, last;
  while (std::getline(in, line)) last = line;
  const auto m = nlohmann::json::parse(last);
  for (const char* key : {"critic_loss", "actor_loss", "temperature", "entropy", "q_mean", "replay_sampled",
                          "replay_inserted", "episode_return_mean"})
    CHECK(m.contains(key));
  CHECK(m["temperature"].get<double>() > 0);
  CHECK(m["temperature"].get<double>() != 1.0);  // learned, from --init-temperature 1

  // eval acts with the mean action: the same seed gives the same return twice.
  const std::string ckpt = dir + "/checkpoint.pt";
  const RunResult e1 = run_seedrl({"eval", "--checkpoint", ckpt, "--episodes", "2", "--seed", "5", "--json"});
  const RunResult e2 = run_seedrl({"eval", "--checkpoint", ckpt, "--episodes", "2", "--seed", "5", "--json"});
  INFO(e1.output << e2.output);
  REQUIRE(e1.status == 0);
  REQUIRE(e2.status == 0);
  const auto j1 = nlohmann::json::parse(e1.output.substr(e1.output.find('{')));
  const auto j2 = nlohmann::json::parse(e2.output.substr(e2.output.find('{')));
  CHECK(j1["env"] == "pendulum");
  CHECK(j1["episode_return_mean"].get<double>() == j2["episode_return_mean"].get<double>());
  const RunResult ex = run_seedrl({"export", "--checkpoint", ckpt, "--output", dir + "/weights.pt"});
  INFO(ex.output);
  CHECK(ex.status == 0);
  CHECK(std::filesystem::file_size(dir + "/weights.pt") > 0);

  // --resume goes on with the weights, the counters and the replay.
  const auto saved = seedrl::read_checkpoint_header(ckpt).counters;
  std::vector<std::string> more = sac_run(dir, static_cast<int>(saved.frames) + 300);
  more.push_back("--resume");
  RunResult second = run_seedrl(more);
  INFO(second.output);
  REQUIRE(second.status == 0);
  CHECK_THAT(second.output, Catch::Contains("resumed from") && Catch::Contains("resumed replay"));
  const auto after = seedrl::read_checkpoint_header(ckpt).counters;
  CHECK(after.frames >= saved.frames + 300);
  // No new warm-up: the replay was already past --min-replay.
  CHECK(after.learner_steps >= saved.learner_steps + 300 - 16);
}

TEST_CASE("train --algo sac refuses what SAC cannot do, in one line naming the flag", "[cli][train][sac]") {
  const std::string dir = temp_dir("train_sac_refused");
  struct Case {
    std::vector<std::string> extra;
    std::string names;
  };
  const std::vector<Case> cases{
      {{"--env", "cartpole"}, "--algo sac"},
      {{"--env", "pendulum", "--lstm"}, "--lstm"},
      {{"--env", "pendulum", "--learner-devices", "cpu,cpu"}, "--learner-devices"},
      {{"--env", "pendulum", "--tau", "0"}, "--tau"},
      {{"--env", "pendulum", "--min-replay", "100", "--replay-capacity", "50"}, "--min-replay"},
      {{"--env", "pendulum", "--eval-every-s", "10"}, "--eval-every-s"},
  };
  for (const Case& c : cases) {
    // Frames enough for SAC's default --min-replay and --random-steps, which
    // a shorter run is refused for; every case is refused before it starts.
    std::vector<std::string> args{"train", "--algo", "sac", "--max-frames", "20000", "--logdir", dir};
    args.insert(args.end(), c.extra.begin(), c.extra.end());
    const RunResult r = run_seedrl(args);
    INFO(r.output);
    CHECK(r.status != 0);
    CHECK_THAT(r.output, Catch::Contains(c.names));
    CHECK(r.output.find("terminate") == std::string::npos);
  }
}
