// --resume of a finished run: with the same --max-frames it says so and
// changes nothing (it used to overwrite summary.json with a 0 fps, 0 return
// summary and append an all-zero metrics line); with a larger one it trains
// on, and what it writes comes from real episodes and learner steps.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../cli/run_binary.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/learner/vtrace_learner.h"

using namespace seedrl;
using namespace seedrl::test;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kResumedVtrace = {
    "train", "--env",           "cartpole", "--actors",        "4",  "--envs-per-actor",
    "4",     "--batch-size",    "4",        "--unroll-length", "20", "--log-interval-s",
    "0.2",   "--learning-rate", "0.001",    "--seed",          "3"};
const std::vector<std::string> kResumedR2d2 = {
    "train", "--algo",       "r2d2", "--env",           "cartpole", "--actors",          "4",   "--envs-per-actor",
    "2",     "--hidden",     "16",   "--unroll-length", "10",       "--burn-in",         "2",   "--sequence-overlap",
    "5",     "--batch-size", "4",    "--min-replay",    "20",       "--replay-capacity", "500", "--log-interval-s",
    "0.2",   "--seed",       "3"};

// Every file in the run's directory, by name, with its bytes.
std::map<std::string, std::string> snapshot(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) files[e.path().filename().string()] = read_file(e.path().string());
  return files;
}

std::vector<nlohmann::json> rows(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(nlohmann::json::parse(line));
  return out;
}

// A value that is there is a real one: episodes of CartPole return at
// least 1, and a loss of exactly 0 is a placeholder.
void check_real_or_null(const nlohmann::json& row, const char* key) {
  INFO(key << " in " << row.dump());
  REQUIRE(row.contains(key));
  if (!row[key].is_null()) CHECK(row[key].get<double>() != 0);
}

void check_resume_of_finished_run(const std::vector<std::string>& run, const char* loss_key) {
  const std::string dir = temp_dir("resume_finished");
  RunResult first = run_seedrl(with(run, {"--max-frames", "6000", "--logdir", dir}));
  INFO(first.output);
  REQUIRE(first.status == 0);
  const auto before = snapshot(dir);
  REQUIRE(before.count("summary.json"));
  REQUIRE(before.count("metrics.jsonl"));
  const auto summary = nlohmann::json::parse(before.at("summary.json"));
  const double frames = summary["frames"].get<double>();
  REQUIRE(frames >= 6000);

  SECTION("with the same --max-frames: nothing to do, nothing touched") {
    RunResult again = run_seedrl(with(run, {"--max-frames", "6000", "--logdir", dir, "--resume"}));
    INFO(again.output);
    CHECK(again.status == 0);
    CHECK_THAT(again.output, Catch::Contains("run already finished at " + std::to_string(static_cast<long>(frames)) +
                                             " frames (--max-frames 6000)"));
    CHECK(std::count(again.output.begin(), again.output.end(), '\n') == 1);  // that line alone, once
    CHECK(snapshot(dir) == before);  // same files, byte for byte; no new event file
  }

  SECTION("with a larger --max-frames: it trains on, with real values only") {
    RunResult more = run_seedrl(with(run, {"--max-frames", "12000", "--logdir", dir, "--resume"}));
    INFO(more.output);
    REQUIRE(more.status == 0);
    const auto s = nlohmann::json::parse(read_file(dir + "/summary.json"));
    CHECK(s["frames"].get<double>() >= 12000);
    CHECK(s["episodes"].get<double>() > summary["episodes"].get<double>());
    CHECK(s["fps"].get<double>() > 0);
    check_real_or_null(s, "episode_return_mean");
    const std::string metrics = read_file(dir + "/metrics.jsonl");
    REQUIRE(metrics.rfind(before.at("metrics.jsonl"), 0) == 0);  // appended to, not rewritten
    const auto added = rows(metrics.substr(before.at("metrics.jsonl").size()));
    REQUIRE(!added.empty());
    for (const auto& row : added) {
      CHECK(row["frames"].get<double>() >= frames);
      check_real_or_null(row, "episode_return_mean");
      check_real_or_null(row, "episode_length_mean");
      check_real_or_null(row, loss_key);
    }
  }
}

}  // namespace

TEST_CASE("v-trace: --resume of a finished run changes nothing unless --max-frames grows",
          "[trainer][lifecycle][resume][slow]") {
  check_resume_of_finished_run(kResumedVtrace, "total_loss");
}

TEST_CASE("r2d2: --resume of a finished run changes nothing unless --max-frames grows",
          "[trainer][lifecycle][resume][r2d2][slow]") {
  check_resume_of_finished_run(kResumedR2d2, "total_loss");
}

TEST_CASE("v-trace: a continued run's learning rate decays to 0 at the new --max-frames",
          "[trainer][lifecycle][resume][slow]") {
  // Linear decay over the consumed frames, to 0 at --max-frames: a run
  // continued past its first budget restarts from the rate its progress
  // has on the new schedule, below the initial one and above 0.
  const std::string dir = temp_dir("resume_lr");
  REQUIRE(run_seedrl(with(kResumedVtrace, {"--max-frames", "6000", "--logdir", dir})).status == 0);
  const auto saved = read_checkpoint_header(dir + "/checkpoint.pt").counters;
  REQUIRE(saved.learner_frames > 0);
  const std::string old_metrics = read_file(dir + "/metrics.jsonl");
  RunResult more = run_seedrl(with(kResumedVtrace, {"--max-frames", "24000", "--logdir", dir, "--resume"}));
  INFO(more.output);
  REQUIRE(more.status == 0);
  const auto added = rows(read_file(dir + "/metrics.jsonl").substr(old_metrics.size()));
  std::vector<double> rates;
  for (const auto& row : added)
    if (!row["learning_rate"].is_null()) rates.push_back(row["learning_rate"].get<double>());
  INFO(nlohmann::json(rates).dump());
  REQUIRE(!rates.empty());
  // How many rows fall inside the run depends on its speed; each one must be
  // on the new schedule (the first update's rate, > 0, is checked below).
  CHECK(rates.front() <= 0.001 * (1.0 - static_cast<double>(saved.learner_frames) / 24000) + 1e-12);
  for (std::size_t i = 1; i < rates.size(); ++i) CHECK(rates[i] <= rates[i - 1]);
  CHECK(rates.back() >= 0);
}

TEST_CASE("a continued run's first learning rate is on the new schedule, not the finished run's 0",
          "[trainer][lifecycle][resume]") {
  LearnerConfig c;
  c.optimizer.learning_rate = 0.001;
  c.max_frames = 6000;
  CHECK(decayed_learning_rate(c, 6000) == 0.0);  // the finished run ended at 0
  c.max_frames = 24000;                          // continued: the learner's frame counter comes from the checkpoint
  CHECK(decayed_learning_rate(c, 6000) == Approx(0.00075).epsilon(1e-12));
  CHECK(decayed_learning_rate(c, 24000) == 0.0);
  CHECK(decayed_learning_rate(c, 30000) == 0.0);
}
