// End-to-end runs of `seedrl train` as a user would start them: a short run
// learns, a TOML config sets flags, Ctrl-C checkpoints and --resume continues.
#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_binary.h"
#include "run_summary.h"
#include "seedrl/io/checkpoint.h"

using namespace seedrl::test;

namespace {
// The progress line says the learner has taken a step.
bool learner_stepped(const std::string& out) {
  for (auto at = out.find("learner steps "); at != std::string::npos; at = out.find("learner steps ", at + 1))
    if (at + 14 < out.size() && out[at + 14] >= '1' && out[at + 14] <= '9') return true;
  return false;
}
}  // namespace

TEST_CASE("a short CartPole run learns and writes its outputs", "[cli][train][slow]") {
  const std::string dir = temp_dir("train_learns");
  RunResult r = run_seedrl({"train", "--env", "cartpole", "--max-frames", "400000", "--actors", "32", "--logdir", dir,
                            "--log-interval-s", "0.1", "--seed", "3"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  auto s = read_summary(dir);
  CHECK(s["frames"].get<double>() >= 400000);
  for (const char* key : {"wall_seconds", "fps", "episodes", "episode_return_mean"}) CHECK(s.contains(key));
  // A uniform random policy averages about 22; learning is well above it.
  CHECK(s["episode_return_mean"].get<double>() >= 100);
  // 32 x 8 envs and batches of 32: a lag of 8 updates, no warning.
  CHECK(r.output.find("policy lag") == std::string::npos);
  // metrics.jsonl: one object per interval with the required keys.
  std::ifstream in(dir + "/metrics.jsonl");
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    auto j = nlohmann::json::parse(line);
    for (const char* key : {"frames", "fps", "episodes", "episode_return_mean", "learner_steps", "wall_seconds",
                            "total_loss", "pg_loss", "baseline_loss", "entropy"})
      CHECK(j.contains(key));
    ++lines;
  }
  CHECK(lines >= 2);
  bool has_events = false;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    has_events |= e.path().filename().string().rfind("events.out.tfevents.", 0) == 0;
  CHECK(has_events);
  CHECK(std::filesystem::exists(dir + "/checkpoint.pt"));

  RunResult ev = run_seedrl({"eval", "--checkpoint", dir + "/checkpoint.pt", "--episodes", "5"});
  INFO(ev.output);
  CHECK(ev.status == 0);
  CHECK_THAT(ev.output, Catch::Contains("cartpole | 5 episodes | return "));  // play's format
  // --json: the same statistics as play --json gives for the same policy and seed.
  const RunResult ej = run_seedrl({"eval", "--checkpoint", dir + "/checkpoint.pt", "--episodes", "3", "--json"});
  const RunResult pj = run_seedrl(
      {"play", "--policy", "checkpoint:" + dir + "/checkpoint.pt", "--episodes", "3", "--seed", "12345", "--json"});
  INFO(ej.output << pj.output);
  REQUIRE(ej.status == 0);
  REQUIRE(pj.status == 0);
  const auto e = nlohmann::json::parse(ej.output.substr(ej.output.find('{')));
  const auto p = nlohmann::json::parse(pj.output.substr(pj.output.find('{')));
  CHECK(e["env"] == "cartpole");
  CHECK(e["episodes"] == 3);
  CHECK(e["episode_return_mean"].get<double>() == p["episode_return_mean"].get<double>());
}

TEST_CASE("the LSTM agent and many actor threads run end to end", "[cli][train][slow]") {
  const std::string dir = temp_dir("train_lstm");
  RunResult r = run_seedrl({"train", "--lstm", "--actors", "2048", "--envs-per-actor", "1", "--max-frames", "100000",
                            "--logdir", dir, "--unroll-length", "10"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(read_summary(dir)["frames"].get<double>() >= 100000);
  CHECK(read_summary(dir)["learner_steps"].get<double>() > 0);
}

TEST_CASE("train warns when its envs far outnumber a batch's unrolls", "[cli][train]") {
  const std::string dir = temp_dir("train_lag_warning");
  // 16 x 64 = 1024 envs, batches of 2 unrolls: each unroll waits ~512 updates.
  RunResult r = run_seedrl({"train", "--env", "cartpole", "--actors", "16", "--envs-per-actor", "64", "--batch-size",
                            "2", "--max-frames", "20000", "--logdir", dir});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("--batch-size: 1024 envs feed batches of 2 unrolls") != std::string::npos);
  CHECK(r.output.find("about 512 updates") != std::string::npos);
  // The start-up line says where the learner thread runs (--learner-cpus).
  CHECK(r.output.find("cpus: learner thread") != std::string::npos);
}

TEST_CASE("a TOML config file sets flags by name", "[cli][train]") {
  const std::string dir = temp_dir("train_config");
  std::ofstream(dir + "/run.toml")
      << "max-frames = 20000\nactors = 8\nenvs-per-actor = 2\nunroll-length = 10\nbatch-size = 4\n"
      << "logdir = \"" << dir << "/logs\"\n";
  RunResult r = run_seedrl({"train", "--config", dir + "/run.toml"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("8 actors x 2 envs"));
  const double frames = read_summary(dir + "/logs")["frames"].get<double>();
  CHECK(frames >= 20000);
  CHECK(frames < 20000 + 8 * 2 + 1);  // each env may take one step past the limit
}

TEST_CASE("Ctrl-C checkpoints, and --resume continues to --max-frames", "[cli][train][slow]") {
  const std::string dir = temp_dir("train_resume");
  const std::vector<std::string> args{"train", "--max-frames",     "100000000", "--actors", "16", "--logdir",
                                      dir,     "--log-interval-s", "0.2"};
  // Ctrl-C once the learner has stepped, however long a loaded machine takes to get there.
  RunResult first = run_seedrl_and_signal_when(
      args, [](const std::string& out, int) { return learner_stepped(out); }, SIGINT);
  INFO(first.output);
  REQUIRE(first.status == 130);
  const auto saved = seedrl::read_checkpoint_header(dir + "/checkpoint.pt").counters;
  CHECK(saved.frames > 0);
  CHECK(saved.learner_steps > 0);

  std::vector<std::string> resume{
      "train", "--max-frames", std::to_string(saved.frames + 50000), "--actors", "16", "--logdir", dir, "--resume"};
  RunResult second = run_seedrl(resume);
  INFO(second.output);
  REQUIRE(second.status == 0);
  CHECK_THAT(second.output, Catch::Contains("resumed from") && Catch::Contains(std::to_string(saved.frames)));
  const auto after = seedrl::read_checkpoint_header(dir + "/checkpoint.pt").counters;
  CHECK(after.frames >= saved.frames + 50000);
  CHECK(after.learner_steps > saved.learner_steps);
  CHECK(after.episodes >= saved.episodes);
}

TEST_CASE("a truncated checkpoint is refused with a clear error", "[cli][train]") {
  const std::string dir = temp_dir("train_corrupt");
  RunResult r = run_seedrl({"train", "--max-frames", "5000", "--actors", "4", "--batch-size", "2", "--logdir", dir});
  REQUIRE(r.status == 0);
  const std::string path = dir + "/checkpoint.pt";
  std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
  RunResult again = run_seedrl({"train", "--max-frames", "10000", "--logdir", dir, "--resume"});
  INFO(again.output);
  CHECK(again.status == 2);
  CHECK_THAT(again.output, Catch::Contains("truncated") && Catch::Contains(path));
}

TEST_CASE("a run of a few seconds writes a curve: the first metrics row as soon as an episode ends", "[cli][train]") {
  // 1M CartPole frames take seconds; the log interval (5 s by default) may
  // never come round before the end.
  const std::string dir = temp_dir("train_first_row");
  const RunResult r = run_seedrl({"train", "--env", "cartpole", "--max-frames", "1000000", "--actors", "8", "--logdir",
                                  dir, "--log-interval-s", "3600", "--seed", "2"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  std::ifstream in(dir + "/metrics.jsonl");
  std::vector<nlohmann::json> rows;
  for (std::string line; std::getline(in, line);) rows.push_back(nlohmann::json::parse(line));
  REQUIRE(rows.size() == 2);  // the first row, then the last
  CHECK_FALSE(rows.front()["episode_return_mean"].is_null());
  CHECK(rows.front()["frames"].get<double>() < rows.back()["frames"].get<double>());
}

TEST_CASE("a run says where its outputs are: the logdir at the start, the files at the end", "[cli][train]") {
  const std::string dir = temp_dir("train_outputs");
  // A relative --logdir, as users type it: the run prints it absolute.
  const auto parent = std::filesystem::path(dir).parent_path();
  const std::string relative = std::filesystem::path(dir).filename().string();
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(parent);
  RunResult r = run_seedrl({"train", "--max-frames", "3000", "--actors", "2", "--logdir", relative});
  std::filesystem::current_path(cwd);
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("logdir: " + dir + "\n"));
  CHECK_THAT(r.output, Catch::Contains("checkpoint: " + dir + "/checkpoint.pt"));
  CHECK_THAT(r.output, Catch::Contains("metrics: " + dir + "/metrics.csv (TensorBoard: tensorboard --logdir " + dir));
  if (std::filesystem::exists(dir + "/report.html")) CHECK_THAT(r.output, Catch::Contains("report: " + dir));
}

TEST_CASE("a run with --stop-at-target ends at its target with a checkpoint that keeps the moment",
          "[cli][train][target]") {
  const std::string dir = temp_dir("train_target");
  // A uniform random policy averages about 22 on CartPole: 40 needs learning.
  const std::vector<std::string> args = {
      "train",           "--env", "cartpole",         "--max-frames",     "5000000", "--actors",         "4",
      "--target-return", "40",    "--stop-at-target", "--log-interval-s", "0.2",     "--report-every-s", "0",
      "--logdir",        dir};
  RunResult r = run_seedrl(args);
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("target return 40 reached"));
  auto s = read_summary(dir);
  CHECK(s["stopped_at_target"] == true);
  CHECK(s["completed"] == true);
  CHECK(s["target_return"] == 40);
  CHECK(s["target_mean_return"].get<double>() >= 40);
  const double at = s["target_frames"].get<double>();
  CHECK(at > 0);
  CHECK(at <= s["frames"].get<double>());
  CHECK(s["frames"].get<double>() < 5000000);
  CHECK(s["target_wall_seconds"].get<double>() <= s["wall_seconds"].get<double>());
  CHECK(s["target_learner_steps"].get<double>() <= s["learner_steps"].get<double>());
  CHECK(s["target_episodes"].get<double>() >= 100);  // a full window of 100 episodes
  // The metrics hold the moment (the report marks it) and the checkpoint keeps it.
  const std::string metrics = read_file(dir + "/metrics.jsonl");
  CHECK_THAT(metrics, Catch::Contains("\"target_frames\":" + std::to_string(static_cast<long long>(at))));
  const auto header = seedrl::read_checkpoint_header(dir + "/checkpoint.pt");
  REQUIRE(header.counters.target_reached);
  CHECK(header.counters.target_reached->frames == static_cast<std::int64_t>(at));
  CHECK(header.counters.target_reached->target == 40);

  // Resuming a run that already reached its target with --stop-at-target does nothing.
  std::vector<std::string> again = args;
  again.push_back("--resume");
  RunResult resumed = run_seedrl(again);
  INFO(resumed.output);
  CHECK(resumed.status == 0);
  CHECK_THAT(resumed.output, Catch::Contains("already reached --target-return 40"));
  CHECK(read_summary(dir)["target_frames"].get<double>() == at);
}

TEST_CASE("a --stop-at-target without --target-return is one line naming both", "[cli][train][target]") {
  RunResult r = run_seedrl({"train", "--env", "cartpole", "--stop-at-target", "--logdir", temp_dir("target_bad")});
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("--stop-at-target") && Catch::Contains("--target-return"));
  RunResult nan = run_seedrl({"train", "--env", "cartpole", "--target-return", "nan"});
  CHECK(nan.status == 2);
  CHECK_THAT(nan.output, Catch::Contains("--target-return"));
}

TEST_CASE("two runs started on one --logdir: the second is refused and the first keeps its files",
          "[cli][train][logdir]") {
  // Both start at once; whichever takes the logdir first runs, the other is
  // refused in one line before it touches the directory (it would otherwise
  // set the first run's files aside while that run writes them). The runner
  // is stopped with Ctrl-C once the other has gone and its learner stepped.
  const std::string dir = temp_dir("train_lock");
  const std::vector<std::string> args{"train", "--max-frames",     "100000000", "--actors", "4", "--logdir",
                                      dir,     "--log-interval-s", "0.2"};
  const auto runs = run_seedrl_group({args, args},
                                     [&, sent = false](const std::vector<std::string>& out,
                                                       const std::vector<bool>& exited) mutable -> std::pair<int, int> {
                                       if (sent || exited[0] == exited[1]) return {-1, 0};
                                       const int runner = exited[0] ? 1 : 0;
                                       if (!learner_stepped(out[runner])) return {-1, 0};
                                       sent = true;
                                       return {runner, SIGINT};
                                     });
  const int refused = runs[0].status == 2 ? 0 : 1;
  const RunResult& runner = runs[1 - refused];
  INFO(runs[0].output);
  INFO(runs[1].output);
  REQUIRE(runs[refused].status == 2);
  CHECK_THAT(runs[refused].output,
             Catch::Contains("seedrl: error: --logdir: " + dir + " is in use by another seedrl train (pid "));
  REQUIRE(runner.status == 130);
  CHECK(seedrl::read_checkpoint_header(dir + "/checkpoint.pt").counters.learner_steps > 0);
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    CHECK(entry.path().filename().string().rfind("replaced-", 0) != 0);  // nothing was set aside

  // The lock ends with its run: a resume is let in (and, past --max-frames, has nothing to do).
  RunResult resume = run_seedrl({"train", "--max-frames", "1", "--actors", "4", "--logdir", dir, "--resume"});
  INFO(resume.output);
  CHECK(resume.status == 0);
}
