// V-trace's periodic evaluation (--eval-every-s): its metrics rows, best.pt
// and its score replayed by `evaluate`, the final evaluation, the best so far
// across --resume, and bad values.
#include <catch2/catch.hpp>

#include <torch/torch.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "one_line_error.h"
#include "run_binary.h"
#include "run_summary.h"
#include "seedrl/env/registry.h"
#include "seedrl/model/agent_net.h"
#include "seedrl/model/policy_distribution.h"
#include "seedrl/trainer/best_checkpoint.h"
#include "seedrl/trainer/evaluate.h"
#include "seedrl/trainer/periodic_eval.h"

using namespace seedrl;
using namespace seedrl::test;

namespace {

std::vector<nlohmann::json> eval_rows(const std::string& logdir) {
  std::vector<nlohmann::json> rows;
  std::ifstream in(logdir + "/metrics.jsonl");
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_object() && j.contains("eval_return_mean") && j["eval_return_mean"].is_number()) rows.push_back(j);
  }
  return rows;
}

// Replays best.pt as `seedrl eval` would, on one torch thread as the run's
// evaluation did (a different thread count may sum in another order).
PlayStats replay(const std::string& path, const EvalResult& best) {
  const int threads = at::get_num_threads();
  at::set_num_threads(1);
  PlayStats s = evaluate(path, best.episodes, best.seed, best.greedy);
  at::set_num_threads(threads);
  return s;
}

}  // namespace

TEST_CASE("train --eval-every-s writes eval rows and a best.pt whose score replays exactly", "[cli][train][eval]") {
  const std::string dir = temp_dir("train_eval");
  // Packed as on a command line.
  // clang-format off
  const std::vector<std::string> args{
      "train", "--env", "cartpole", "--max-frames", "100000000", "--actors", "4", "--logdir", dir, "--seed", "5",
      "--eval-every-s", "0.5", "--eval-episodes", "3", "--eval-greedy", "--log-interval-s", "0.1"};
  // clang-format on
  // Ctrl-C after three periodic evaluations, one of them of a policy that
  // balances the pole a while: an untrained greedy policy pushes one way and
  // scores about 9 whatever its weights, so replaying a score of 9 exactly
  // would not show that best.pt holds the weights that earned it.
  auto ready = [&](const std::string&, int) {
    const auto rows = eval_rows(dir);
    return rows.size() >= 3 && std::any_of(rows.begin(), rows.end(), [](const nlohmann::json& row) {
             return row["eval_return_mean"].get<double>() >= 50;
           });
  };
  RunResult r = run_seedrl_and_signal_when(args, ready, SIGINT);
  INFO(r.output);
  REQUIRE(r.status == 130);
  const std::vector<nlohmann::json> rows = eval_rows(dir);
  REQUIRE(rows.size() >= 3);
  double best_logged = -1e300, last_frames = -1;
  REQUIRE(r.output.find("evaluation: 3 greedy episodes every 0.5 s") != std::string::npos);
  for (const auto& row : rows) {
    CHECK(row["eval_episodes"] == 3);
    CHECK(row["eval_return_std"].is_number());
    // The weights were taken at eval_frames; the row is written later.
    CHECK(row["eval_frames"].get<double>() <= row["frames"].get<double>());
    CHECK(row["frames"].get<double>() >= last_frames);
    CHECK(row.contains("wall_seconds"));
    last_frames = row["frames"].get<double>();
    best_logged = std::max(best_logged, row["eval_return_mean"].get<double>());
  }
  REQUIRE(best_logged >= 50);
  // metrics.csv has the eval columns (its columns are its first row's keys).
  std::ifstream csv(dir + "/metrics.csv");
  std::string header;
  std::getline(csv, header);
  CHECK_THAT(header, Catch::Contains("eval_return_mean") && Catch::Contains("eval_frames"));

  const std::string best_path = dir + "/best.pt";
  REQUIRE(std::filesystem::exists(best_path));
  const auto best = read_best_eval(best_path);
  REQUIRE(best);
  CHECK(best->return_mean == best_logged);
  CHECK(best->episodes == 3);
  CHECK(best->greedy);
  CHECK(best->seed == eval_seed(5));
  // The same weights, seed and episodes through `evaluate`: the same score, exactly.
  const PlayStats again = replay(best_path, *best);
  CHECK(again.return_mean == best->return_mean);
  CHECK(again.return_std == best->return_std);
  const auto s = read_summary(dir);
  CHECK(s["eval_best_return_mean"].get<double>() == best_logged);
  CHECK(s["eval_return_mean"].get<double>() == rows.back()["eval_return_mean"].get<double>());

  // `seedrl eval` and `play --policy checkpoint:` take it.
  const RunResult ev = run_seedrl({"eval", "--checkpoint", best_path, "--episodes", "2"});
  INFO(ev.output);
  CHECK(ev.status == 0);
  const RunResult pl = run_seedrl({"play", "--policy", "checkpoint:" + best_path, "--episodes", "1"});
  INFO(pl.output);
  CHECK(pl.status == 0);
  // An env flag that would change what the policy was trained on is refused, not ignored.
  check_one_line_error({"play", "--policy", "checkpoint:" + best_path, "--frame-stack", "2"}, "--frame-stack");
  check_one_line_error({"play", "--policy", "checkpoint:" + best_path, "--football-obs", "simple115v2"},
                       "--football-obs");
}

TEST_CASE("a finished run evaluates its final weights and --resume keeps the best so far", "[cli][train][eval]") {
  const std::string dir = temp_dir("train_eval_final");
  // An evaluation period longer than the run: the only evaluation is the
  // final one. Sampled, as by default: its actions come from a stream of its
  // own that the seed replays, not from the one inference shares.
  std::vector<std::string> args{"train",   "--env",           "cartpole", "--max-frames", "20000", "--actors",
                                "4",       "--logdir",        dir,        "--seed",       "9",     "--eval-every-s",
                                "1000000", "--eval-episodes", "5"};
  RunResult r = run_seedrl(args);
  INFO(r.output);
  REQUIRE(r.status == 0);
  auto rows = eval_rows(dir);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0]["eval_frames"].get<double>() >= 20000);
  const auto first = read_best_eval(dir + "/best.pt");
  REQUIRE(first);
  CHECK(first->return_mean == rows[0]["eval_return_mean"].get<double>());
  CHECK_FALSE(first->greedy);
  const PlayStats again = replay(dir + "/best.pt", *first);
  CHECK(again.return_mean == first->return_mean);
  CHECK(again.return_std == first->return_std);
  // Sampled play differs from greedy play on the same seed (a check that
  // the replay above did sample).
  EvalResult greedy = *first;
  greedy.greedy = true;
  CHECK(replay(dir + "/best.pt", greedy).return_mean != first->return_mean);
  CHECK(read_summary(dir)["eval_best_return_mean"].get<double>() == first->return_mean);

  // A best no evaluation can beat: the resumed run must read it back and keep it.
  EvalResult unbeatable = *first;
  unbeatable.return_mean = 1e9;
  {
    const EnvSpec spec = EnvRegistry::builtin().make("cartpole")->spec();
    TrainConfig config;
    config.seed = 9;
    AgentNet net(spec, config.model, make_policy_distribution(spec.action)->param_size());
    save_best_checkpoint(dir + "/best.pt", net, config, unbeatable);
  }
  args[4] = "40000";
  args.push_back("--resume");
  RunResult resumed = run_seedrl(args);
  INFO(resumed.output);
  REQUIRE(resumed.status == 0);
  CHECK_THAT(resumed.output, Catch::Contains("best so far"));
  rows = eval_rows(dir);
  CHECK(rows.size() == 2);
  CHECK(read_best_eval(dir + "/best.pt")->return_mean == 1e9);
  CHECK(read_summary(dir)["eval_best_return_mean"].get<double>() == 1e9);

  // A damaged best.pt is refused at --resume, naming it, not overwritten.
  std::ofstream(dir + "/best.pt", std::ios::trunc) << "not a checkpoint";
  args[4] = "60000";
  check_one_line_error(args, dir + "/best.pt");
}

TEST_CASE("bad evaluation flags get one line naming the flag", "[cli][eval]") {
  check_one_line_error({"train", "--eval-episodes", "0"}, "--eval-episodes");
  check_one_line_error({"train", "--eval-every-s", "-1"}, "--eval-every-s");
  check_one_line_error({"train", "--eval-every-s", "nan"}, "--eval-every-s");
  check_one_line_error({"train", "--algo", "r2d2", "--eval-every-s", "5", "--logdir", temp_dir("eval_r2d2")},
                       "--eval-every-s");
}
