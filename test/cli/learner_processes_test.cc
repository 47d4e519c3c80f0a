// Several `seedrl train` processes as one run (--world-size, docs/cluster.md),
// on loopback: they learn CartPole to the one-process target, keep identical
// weights, count the whole run's frames, end together when one rank dies,
// resume from rank 0's checkpoint, and refuse what they cannot do in one line.
#include <signal.h>
#include <stdlib.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "../util/free_port.h"
#include "one_line_error.h"
#include "run_binary.h"
#include "seedrl/io/checkpoint.h"

using seedrl::test::free_port;
using seedrl::test::run_seedrl;
using seedrl::test::run_seedrl_group;
using seedrl::test::RunResult;
using seedrl::test::temp_dir;

namespace {

// CartPole at its config's settings, with fewer actor threads: up to three
// processes share the test machine's cores.
std::vector<std::string> rank_args(const std::string& logdir, int rank, int world, int port,
                                   std::vector<std::string> extra = {}) {
  std::vector<std::string> a{"train",
                             "--config",
                             seedrl::test::source_dir() + "/configs/cartpole.toml",
                             "--actors",
                             "4",
                             "--envs-per-actor",
                             "16",
                             "--logdir",
                             logdir,
                             "--rank",
                             std::to_string(rank),
                             "--world-size",
                             std::to_string(world),
                             "--master-port",
                             std::to_string(port),
                             "--replica-checksum-every",
                             "10",
                             "--report-every-s",
                             "0",
                             "--checkpoint-every-s",
                             "5"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

std::vector<std::vector<std::string>> group_args(const std::string& logdir, int world,
                                                 const std::vector<std::string>& extra) {
  const int port = free_port();
  std::vector<std::vector<std::string>> args;
  for (int r = 0; r < world; ++r) args.push_back(rank_args(logdir, r, world, port, extra));
  return args;
}

// The checksum a rank logs when the group stops, identical on every rank when their weights are.
std::string final_checksum(const std::string& output) {
  static const std::regex line("weights identical on all [0-9]+ ranks \\(checksum ([^)]+)\\)");
  std::smatch m;
  return std::regex_search(output, m, line) ? m[1].str() : std::string();
}

double summary_number(const std::string& logdir, const std::string& key) {
  return nlohmann::json::parse(seedrl::test::read_file(logdir + "/summary.json")).at(key).get<double>();
}

void learns_cartpole(int world) {
  const std::string logdir = temp_dir("learner_processes");
  const auto runs = run_seedrl_group(group_args(logdir, world, {"--target-return", "475", "--stop-at-target"}));
  for (int r = 0; r < world; ++r) {
    INFO("rank " << r << ":\n" << runs[r].output);
    REQUIRE(runs[r].status == 0);
  }
  // Rank 0 judges the target, on its own episodes, and stops the group there.
  const std::string& first = runs[0].output;
  INFO(first);
  CHECK(first.find("target return 475 reached") != std::string::npos);
  CHECK(nlohmann::json::parse(seedrl::test::read_file(logdir + "/summary.json")).at("stopped_at_target") == true);
  // One set of weights: every rank logs the same checksum of them at the end.
  const std::string sum = final_checksum(first);
  REQUIRE(!sum.empty());
  for (int r = 1; r < world; ++r) CHECK(final_checksum(runs[r].output) == sum);
  // Rank 0 writes the run's files; the others only their own logs.
  CHECK(std::filesystem::exists(logdir + "/checkpoint.pt"));
  CHECK(std::filesystem::exists(logdir + "/summary.json"));
  for (int r = 1; r < world; ++r) {
    const std::string own = logdir + "/rank-" + std::to_string(r);
    CHECK(std::filesystem::exists(own + "/metrics.jsonl"));
    CHECK_FALSE(std::filesystem::exists(own + "/checkpoint.pt"));
  }
  // Frames are the whole run's: every update consumed `world` batches of 32
  // unrolls x 20 steps, which only the frames of every rank together cover
  // (the learner counts every unroll whole, the first ones' staggered starts
  // too: a few percent more than were acted); one rank's frames alone would
  // be a 1/world share. Every rank counts them.
  const auto header = seedrl::read_checkpoint_header(logdir + "/checkpoint.pt");
  const double consumed = static_cast<double>(header.counters.learner_steps) * world * 32 * 20;
  CHECK(header.counters.learner_frames == static_cast<std::int64_t>(consumed));
  const double frames = summary_number(logdir, "frames");
  CHECK(frames >= 0.95 * consumed);
  for (int r = 1; r < world; ++r) {
    const double theirs = summary_number(logdir + "/rank-" + std::to_string(r), "frames");
    CHECK(std::abs(theirs - frames) <= 0.1 * frames);
  }
}

}  // namespace

TEST_CASE("two learner processes learn CartPole to 475 with identical weights", "[learner_processes][slow]") {
  learns_cartpole(2);
}

TEST_CASE("three learner processes learn CartPole to 475 with identical weights", "[learner_processes][slow]") {
  learns_cartpole(3);
}

TEST_CASE("a learner process that dies ends the others, and the group resumes", "[learner_processes][slow]") {
  const std::string logdir = temp_dir("learner_processes_kill");
  const std::string checkpoint = logdir + "/checkpoint.pt";
  // Rank 1 is killed once rank 0 has written a checkpoint.
  const auto runs =
      run_seedrl_group(group_args(logdir, 2, {"--max-frames", "100000000", "--collective-timeout-s", "600"}),
                       [&](const std::vector<std::string>&, const std::vector<bool>&) {
                         return std::filesystem::exists(checkpoint) ? std::pair{1, SIGKILL} : std::pair{-1, 0};
                       });
  INFO("rank 0:\n" << runs[0].output);
  REQUIRE(runs[1].status == 128 + SIGKILL);
  // Not at the 600 s timeout: the lost connection ends rank 0 at once, with a line that says so.
  CHECK(runs[0].status == 1);
  // It names the rank: its process is gone from this host.
  CHECK(runs[0].output.find("learner processes: learner rank 1 (pid") != std::string::npos);
  CHECK(runs[0].output.find(") exited; every rank stops after") != std::string::npos);
  const auto before = seedrl::read_checkpoint_header(checkpoint).counters;
  REQUIRE(before.learner_steps > 0);

  // --resume: both ranks start from rank 0's checkpoint and go on to a new budget.
  const std::string budget = std::to_string(before.frames + 20000);
  const auto again = run_seedrl_group(group_args(logdir, 2, {"--resume", "--max-frames", budget}));
  for (int r = 0; r < 2; ++r) {
    INFO("resumed rank " << r << ":\n" << again[r].output);
    REQUIRE(again[r].status == 0);
    CHECK(again[r].output.find("resumed from " + checkpoint) != std::string::npos);
  }
  CHECK(final_checksum(again[0].output) == final_checksum(again[1].output));
  const auto after = seedrl::read_checkpoint_header(checkpoint).counters;
  CHECK(after.learner_steps > before.learner_steps);
  CHECK(after.frames >= before.frames + 20000);
}

TEST_CASE("a learner process that hangs ends the others at the collective timeout", "[learner_processes][slow]") {
  // 20 s: long beside a loaded machine's slowest update, short beside the suite's deadlines.
  const std::string logdir = temp_dir("learner_processes_hang");
  // Rank 1 is stopped (SIGSTOP: alive, silent) once both have made updates,
  // and killed once rank 0 has given up on it.
  bool stopped = false;
  const auto runs = run_seedrl_group(
      group_args(logdir, 2, {"--max-frames", "100000000", "--collective-timeout-s", "20", "--log-interval-s", "0.2"}),
      [&](const std::vector<std::string>& out, const std::vector<bool>& exited) {
        static const std::regex updating("learner steps [1-9]");
        if (!stopped && std::regex_search(out[0], updating)) {
          stopped = true;
          return std::pair{1, SIGSTOP};
        }
        return stopped && exited[0] ? std::pair{1, SIGKILL} : std::pair{-1, 0};
      });
  INFO("rank 0:\n" << runs[0].output);
  REQUIRE(stopped);
  CHECK(runs[0].status == 1);
  // Its process is still there: rank 0 cannot tell which rank went silent, only that one did.
  CHECK(runs[0].output.find("learner processes: lost another rank (it died or stopped answering)") !=
        std::string::npos);
}

TEST_CASE("a process with another token never joins the group", "[learner_processes]") {
  const std::string dir = temp_dir("learner_processes_token");
  for (const char* t : {"a", "b"}) {
    std::ofstream(dir + "/" + t) << "secret-" << t << "\n";
  }
  const int port = free_port();
  std::vector<std::vector<std::string>> args{
      rank_args(dir + "/run", 0, 2, port, {"--token-file", dir + "/a", "--collective-timeout-s", "15"}),
      rank_args(dir + "/run", 1, 2, port, {"--token-file", dir + "/b", "--collective-timeout-s", "15"})};
  const auto runs = run_seedrl_group(args);
  for (int r = 0; r < 2; ++r) {
    INFO("rank " << r << ":\n" << runs[r].output);
    CHECK(runs[r].status != 0);
    CHECK_THAT(runs[r].output, !Catch::Contains("learner ranks: "));
  }
  // Rank 0, which holds the store, gives up at its timeout; rank 1 gives up at
  // its own or, when rank 0's came first, on the store's going away with it:
  // which one it sees is a race, each a one-line error.
  CHECK_THAT(runs[0].output, Catch::Contains("could not meet the other learner processes"));
  CHECK_THAT(runs[1].output, Catch::Contains("could not meet the other learner processes") ||
                                 Catch::Contains("went away while the group formed"));
}

TEST_CASE("Ctrl-C while a learner process waits for its group ends it at once, not at the collective timeout",
          "[learner_processes]") {
  // Rank 1 never starts: rank 0 waits to meet it for --collective-timeout-s (an hour here).
  const std::string dir = temp_dir("learner_processes_sigint");
  // Signalled once a second thread exists: main blocks the stop signals before
  // starting any, so from then on SIGINT is the program's to handle.
  const seedrl::test::RunResult r = seedrl::test::run_seedrl_and_signal_when(
      rank_args(dir + "/run", 0, 2, free_port(), {"--collective-timeout-s", "3600"}),
      [](const std::string&, int pid) { return seedrl::test::thread_count(pid) >= 2; }, SIGINT, 600);
  INFO(r.output);
  CHECK(r.status == 128 + SIGINT);
  CHECK_THAT(r.output, Catch::Contains("stopped by SIGINT"));
  CHECK(r.signal_to_exit_s < 300);  // a bound that only catches the old wait for the timeout
}

TEST_CASE("learner-process flags default to torchrun's variables", "[learner_processes]") {
  // The child inherits them: WORLD_SIZE=2 and RANK=2 are read, and refused as a pair.
  setenv("WORLD_SIZE", "2", 1);
  setenv("RANK", "2", 1);
  const std::string logdir = temp_dir("learner_processes_env");
  seedrl::test::check_one_line_error({"train", "--env", "cartpole", "--logdir", logdir},
                                     "--rank: 2 is not below --world-size 2");
  // A flag wins over its variable.
  seedrl::test::check_one_line_error(
      {"train", "--env", "cartpole", "--logdir", logdir, "--world-size", "3", "--rank", "3"},
      "--rank: 3 is not below --world-size 3");
  unsetenv("WORLD_SIZE");
  unsetenv("RANK");
  // A value the flag would refuse is refused from its variable too, naming
  // both (CLI11 2.4 and later would drop it in silence and train alone).
  setenv("MASTER_PORT", "0", 1);
  seedrl::test::check_one_line_error({"train", "--env", "cartpole", "--logdir", logdir},
                                     "--master-port: MASTER_PORT=0 is refused");
  unsetenv("MASTER_PORT");
  setenv("WORLD_SIZE", "two", 1);
  seedrl::test::check_one_line_error({"train", "--env", "cartpole", "--logdir", logdir},
                                     "--world-size: WORLD_SIZE=two is refused");
  unsetenv("WORLD_SIZE");
}

TEST_CASE("learner-process flags refuse what they cannot do in one line", "[learner_processes]") {
  const std::string logdir = temp_dir("learner_processes_refuse");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--rank", "2", "--world-size", "2"}, "--rank"},
      {{"--world-size", "2", "--algo", "r2d2"}, "--world-size"},
      {{"--world-size", "2", "--normalize-obs"}, "--normalize-obs"},
      {{"--world-size", "2", "--master-addr", "10.1.2.3"}, "--master-addr"},
      {{"--world-size", "2", "--master-port", "70000"}, "--master-port"},
  };
  for (const auto& [flags, named] : cases) {
    std::vector<std::string> args{"train", "--env", "cartpole", "--logdir", logdir};
    args.insert(args.end(), flags.begin(), flags.end());
    seedrl::test::check_one_line_error(args, named);
  }
}
