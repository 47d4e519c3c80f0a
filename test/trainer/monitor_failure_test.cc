// A disk that fills while a run trains: the write that fails (metrics.jsonl,
// summary.json; here /dev/full, where every write fails with ENOSPC) stops
// every thread in order and ends the process with one error line naming the
// file and the reason, a nonzero status and the last good checkpoint in place.
// It used to hang for ever: the exception skipped the shutdown, and the
// learner thread's join waited on a store nobody closed.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "../cli/run_binary.h"
#include "seedrl/io/checkpoint.h"

using namespace seedrl;
using namespace seedrl::test;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kMonitoredVtrace = {
    "train", "--env",           "cartpole", "--actors",         "4",   "--envs-per-actor",     "4", "--batch-size",
    "4",     "--unroll-length", "20",       "--log-interval-s", "0.2", "--checkpoint-every-s", "0", "--seed",
    "7"};
const std::vector<std::string> kMonitoredR2d2 = {"train",    "--algo",
                                                 "r2d2",     "--env",
                                                 "cartpole", "--actors",
                                                 "4",        "--envs-per-actor",
                                                 "2",        "--hidden",
                                                 "16",       "--unroll-length",
                                                 "10",       "--burn-in",
                                                 "2",        "--sequence-overlap",
                                                 "5",        "--batch-size",
                                                 "4",        "--min-replay",
                                                 "20",       "--replay-capacity",
                                                 "500",      "--log-interval-s",
                                                 "0.2",      "--checkpoint-every-s",
                                                 "0",        "--seed",
                                                 "7"};

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The process ended by itself (the deadline only catches a hang), failed,
// and said why in exactly one error line, naming `file` and the cause.
void check_failed_on(const RunResult& r, const std::string& file) {
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK(count(r.output, "[error]") == 1);
  const auto at = r.output.find("[error]");
  REQUIRE(at != std::string::npos);
  const std::string line = r.output.substr(at, r.output.find('\n', at) - at);
  CHECK_THAT(line, Catch::Contains(file) && Catch::Contains("No space left on device"));
}

// A short run that ends normally, leaving its checkpoint; then the same run
// resumed for many more frames with metrics.jsonl on a full disk.
void check_metrics_failure_mid_run(const std::vector<std::string>& run) {
  const std::string dir = temp_dir("monitor_failure");
  RunResult first = run_seedrl(with(run, {"--max-frames", "4000", "--logdir", dir}));
  INFO(first.output);
  REQUIRE(first.status == 0);
  const std::string checkpoint = dir + "/checkpoint.pt";
  const CheckpointCounters saved = read_checkpoint_header(checkpoint).counters;
  REQUIRE(saved.frames >= 4000);
  const std::string weights = read_file(checkpoint);

  fs::remove(dir + "/metrics.jsonl");
  fs::create_symlink("/dev/full", dir + "/metrics.jsonl");
  // Far more frames than the deadline allows: only the failure ends it.
  RunResult full = run_seedrl(with(run, {"--max-frames", "1000000000", "--logdir", dir, "--resume"}));
  check_failed_on(full, dir + "/metrics.jsonl");
  // No save over the last good checkpoint; it still loads and plays.
  CHECK(read_file(checkpoint) == weights);
  RunResult ev = run_seedrl({"eval", "--checkpoint", checkpoint, "--episodes", "1"});
  INFO(ev.output);
  CHECK(ev.status == 0);
}

// The run reaches --max-frames; then summary.json cannot be written. The
// final checkpoint is saved before the summary, so the weights are kept.
void check_summary_failure_at_end(const std::vector<std::string>& run) {
  const std::string dir = temp_dir("summary_failure");
  fs::create_symlink("/dev/full", dir + "/summary.json.tmp");
  RunResult r = run_seedrl(with(run, {"--max-frames", "4000", "--logdir", dir}));
  check_failed_on(r, dir + "/summary.json.tmp");
  CHECK(read_checkpoint_header(dir + "/checkpoint.pt").counters.frames >= 4000);
  CHECK_FALSE(fs::exists(dir + "/summary.json"));
}

}  // namespace

TEST_CASE("v-trace: metrics.jsonl on a full disk ends the run with one error line",
          "[trainer][lifecycle][disk_full][slow]") {
  check_metrics_failure_mid_run(kMonitoredVtrace);
}

TEST_CASE("r2d2: metrics.jsonl on a full disk ends the run with one error line",
          "[trainer][lifecycle][disk_full][r2d2][slow]") {
  check_metrics_failure_mid_run(kMonitoredR2d2);
}

TEST_CASE("v-trace: a summary.json that cannot be written keeps the final checkpoint",
          "[trainer][lifecycle][disk_full]") {
  check_summary_failure_at_end(kMonitoredVtrace);
}

TEST_CASE("r2d2: a summary.json that cannot be written keeps the final checkpoint",
          "[trainer][lifecycle][disk_full][r2d2]") {
  check_summary_failure_at_end(kMonitoredR2d2);
}
