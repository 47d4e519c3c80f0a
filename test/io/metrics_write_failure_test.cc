// Every write of a run's metrics is checked: a full disk (here /dev/full,
// where every write fails with ENOSPC) is an exception that names the file
// and the reason, never a silently missing line.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <system_error>

#include "../cli/run_binary.h"
#include "seedrl/io/metrics_writer.h"
#include "seedrl/io/output_file.h"

using namespace seedrl;
using namespace seedrl::test;
namespace fs = std::filesystem;

namespace {
void check_names_file_and_cause(const std::string& what, const std::string& path) {
  INFO(what);
  CHECK_THAT(what, Catch::Contains(path) && Catch::Contains("No space left on device"));
  CHECK(what.find('\n') == std::string::npos);
}
}  // namespace

TEST_CASE("an output file reports a failed write with its path and the reason", "[io][metrics][disk_full]") {
  REQUIRE(fs::exists("/dev/full"));
  OutputFile out("/dev/full", OutputFile::Mode::kAppend);
  try {
    out.write("a line\n");
    FAIL("a write to /dev/full succeeded");
  } catch (const std::system_error& e) {
    check_names_file_and_cause(e.what(), "/dev/full");
  }
  OutputFile ok((fs::path(temp_dir("output_file")) / "f").string(), OutputFile::Mode::kTruncate);
  ok.write("text");
  ok.sync();
  ok.close();
  ok.close();  // a second close does nothing
  CHECK(read_file(ok.path()) == "text");
}

TEST_CASE("metrics.jsonl on a full disk fails the write that cannot land", "[io][metrics][disk_full]") {
  const fs::path dir = temp_dir("metrics_full");
  fs::create_symlink("/dev/full", dir / "metrics.jsonl");
  MetricsWriter metrics(dir.string());
  try {
    metrics.write({{"frames", 10}, {"fps", 1}}, 0);
    FAIL("the metrics line was lost without an error");
  } catch (const std::system_error& e) {
    check_names_file_and_cause(e.what(), (dir / "metrics.jsonl").string());
  }
}

TEST_CASE("summary.json on a full disk fails and keeps the previous summary", "[io][metrics][disk_full]") {
  const fs::path dir = temp_dir("summary_full");
  {
    MetricsWriter metrics(dir.string());
    metrics.write_summary({{"frames", 100}, {"episode_return_mean", 42.5}});
    metrics.close();
  }
  const std::string before = read_file((dir / "summary.json").string());
  REQUIRE_THAT(before, Catch::Contains("42.5"));
  fs::create_symlink("/dev/full", dir / "summary.json.tmp");
  MetricsWriter metrics(dir.string());
  try {
    metrics.write_summary({{"frames", 200}, {"episode_return_mean", 0}});
    FAIL("the summary was lost without an error");
  } catch (const std::system_error& e) {
    check_names_file_and_cause(e.what(), (dir / "summary.json.tmp").string());
  }
  CHECK(read_file((dir / "summary.json").string()) == before);
  CHECK_FALSE(fs::exists(fs::symlink_status(dir / "summary.json.tmp")));
}

TEST_CASE("a scalar with no value yet is null in metrics.jsonl and absent from TensorBoard", "[io][metrics]") {
  const fs::path dir = temp_dir("metrics_null");
  {
    MetricsWriter metrics(dir.string());
    metrics.write({{"frames", 5}, {"episode_return_mean", std::numeric_limits<double>::quiet_NaN()}}, 0);
    metrics.close();
  }
  CHECK(read_file((dir / "metrics.jsonl").string()) == "{\"episode_return_mean\":null,\"frames\":5}\n");
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind("events.out.tfevents.", 0) == 0)
      CHECK(read_file(e.path().string()).find("episode_return_mean") == std::string::npos);
}
