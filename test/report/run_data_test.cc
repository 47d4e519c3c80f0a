// Reading a run directory for a report (report/run_data.h) and grouping runs
// that differ only in their seed (report/run_groups.h).
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <string>

#include "../cli/run_binary.h"
#include "seedrl/report/run_data.h"
#include "seedrl/report/run_groups.h"

using namespace seedrl::report;
using seedrl::test::temp_dir;

namespace {

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// A run directory with a metrics line and, unless `config` is empty, a config.toml.
std::string run_dir(const std::string& name, const std::string& config) {
  const std::string dir = temp_dir(name);
  write_text(dir + "/metrics.jsonl", "{\"frames\": 100, \"episode_return_mean\": 1.5}\n");
  if (!config.empty()) write_text(dir + "/config.toml", config);
  return dir;
}

}  // namespace

TEST_CASE("a run's metrics load as columns, nulls as no value", "[report]") {
  const std::string dir = temp_dir("report_load");
  write_text(dir + "/metrics.jsonl",
             "{\"frames\": 0, \"episode_return_mean\": null, \"fps\": 10}\n"
             "\n"
             "{\"frames\": 100, \"episode_return_mean\": 2.5, \"fps\": 20, \"grad_norm\": 0.5}\n");
  write_text(dir + "/summary.json", "{\"frames\": 100, \"nested\": {\"a\": [1, 2]}}");
  const RunData run = load_run(dir);
  REQUIRE(run.frames == std::vector<double>{0, 100});
  REQUIRE(run.metric("episode_return_mean"));
  CHECK(std::isnan(run.metric("episode_return_mean")->at(0)));
  CHECK(run.metric("episode_return_mean")->at(1) == 2.5);
  REQUIRE(run.metric("grad_norm"));
  CHECK(std::isnan(run.metric("grad_norm")->at(0)));  // the key came later
  CHECK(run.metric("fps")->at(1) == 20);
  CHECK_FALSE(run.has_config);
  CHECK(run.summary == Table{{"frames", "100"}, {"nested.a[0]", "1"}, {"nested.a[1]", "2"}});
}

TEST_CASE("a resumed run's lines replace the earlier process's past its checkpoint", "[report]") {
  const std::string dir = temp_dir("report_resume");
  // The first process logged up to 300 frames; the checkpoint was at 200.
  // The resumed process counts its wall time from 0 again.
  write_text(dir + "/metrics.jsonl",
             "{\"frames\": 100, \"wall_seconds\": 1}\n"
             "{\"frames\": 200, \"wall_seconds\": 2}\n"
             "{\"frames\": 300, \"wall_seconds\": 3}\n"
             "{\"frames\": 250, \"wall_seconds\": 0.5}\n"
             "{\"frames\": 350, \"wall_seconds\": 1.5}\n");
  const RunData run = load_run(dir);
  CHECK(run.frames == std::vector<double>{100, 200, 250, 350});
  CHECK(*run.metric("wall_seconds") == std::vector<double>{1, 2, 3.5, 4.5});
}

TEST_CASE("a last line still being written is left out", "[report]") {
  const std::string dir = temp_dir("report_partial");
  write_text(dir + "/metrics.jsonl", "{\"frames\": 100}\n{\"frames\": 200, \"fp");
  CHECK(load_run(dir).frames == std::vector<double>{100});
}

TEST_CASE("a metrics file of more values than a report charts is refused, not tens of GB", "[report]") {
  // One line of 256 keys, then short lines: every column holds a value per line.
  const std::string dir = temp_dir("report_cells");
  std::string text = "{\"frames\": 0";
  for (int k = 0; k < 256; ++k) text += ",\"k" + std::to_string(k) + "\": 1";
  text += "}\n";
  for (int i = 1; i < 300000; ++i) text += "{\"frames\":" + std::to_string(i) + "}\n";
  write_text(dir + "/metrics.jsonl", text);
  CHECK_THROWS_WITH(load_run(dir),
                    Catch::Contains(dir + "/metrics.jsonl:") && Catch::Contains("more values than a report charts"));
}

TEST_CASE("a line cut off by a killed process is left out wherever it is", "[report]") {
  // The process was killed mid-line; its --resume appended from the next line
  // (OutputFile ends a torn last line before appending).
  const std::string dir = temp_dir("report_torn");
  write_text(dir + "/metrics.jsonl",
             "{\"frames\": 100}\n{\"frames\": 200, \"fp\n{\"frames\": 150}\n{\"frames\": 300}\n");
  CHECK(load_run(dir).frames == std::vector<double>{100, 150, 300});
}

TEST_CASE("a summary nested far past the table's depth is shown, not a stack overflow", "[report]") {
  const std::string dir = temp_dir("report_deep");
  write_text(dir + "/metrics.jsonl", "{\"frames\": 100}\n");
  const int depth = 100000;
  write_text(dir + "/summary.json", "{\"deep\": " + std::string(depth, '[') + std::string(depth, ']') + "}");
  const RunData run = load_run(dir);
  bool shown = false;
  for (const auto& [key, value] : run.summary) shown = shown || value == "(nested deeper than 32 levels)";
  CHECK(shown);
}

TEST_CASE("malformed run files are refused naming the file and line", "[report]") {
  const std::string dir = temp_dir("report_malformed");
  write_text(dir + "/metrics.jsonl", "{\"frames\": 100}\n{\"frames\": 200,, \"fps\": 3}\n{\"frames\": 300}\n");
  CHECK_THROWS_WITH(load_run(dir), Catch::Contains(dir + "/metrics.jsonl:2: not a JSON line (syntax error"));
  write_text(dir + "/metrics.jsonl", "{\"frames\": 100}\n[1, 2]\n");
  CHECK_THROWS_WITH(load_run(dir), Catch::Contains("metrics.jsonl:2: not a JSON object"));
  write_text(dir + "/metrics.jsonl", "{\"frames\": 100}\n{\"frames\": 200, \"loss\": 1e400}\n");
  CHECK_THROWS_WITH(load_run(dir), Catch::Contains(dir + "/metrics.jsonl:2: not a JSON line (a number beyond"));
  write_text(dir + "/metrics.jsonl", "{\"fps\": 100}\n");
  CHECK_THROWS_WITH(load_run(dir), Catch::Contains("metrics.jsonl:1: no \"frames\" number"));
  write_text(dir + "/metrics.jsonl", "{\"frames\": 100}\n");
  write_text(dir + "/config.toml", "env = \"cartpole\"\nseed = \n");
  CHECK_THROWS_WITH(load_run(dir), Catch::Contains(dir + "/config.toml:2"));
  write_text(dir + "/config.toml", "env = \"cartpole\"\n");
  write_text(dir + "/summary.json", "{\"frames\": ");
  CHECK_THROWS_WITH(load_run(dir), Catch::Contains(dir + "/summary.json"));
  write_text(dir + "/summary.json", "{\"frames\": 1e999}");
  CHECK_THROWS_WITH(load_run(dir), Catch::Contains(dir + "/summary.json: not JSON (a number beyond"));
  CHECK_THROWS_WITH(load_run(dir + "/missing"), Catch::Contains(dir + "/missing: no such run directory"));
  CHECK_THROWS_WITH(load_run(temp_dir("report_empty")), Catch::Contains("no metrics.jsonl"));
}

TEST_CASE("runs whose config.toml differ only in seed and logdir are one group", "[report]") {
  std::vector<RunData> runs;
  // 0 and 1: seeds of one config (key order, '_' for '-' and the logdir do not matter).
  runs.push_back(load_run(run_dir("g0", "env = \"cartpole\"\nmax-frames = 2000\nseed = 1\nlogdir = \"a\"\n")));
  runs.push_back(load_run(run_dir("g1",
                                  "logdir = \"b\"\nseed = 2\nmax_frames = 2000\nenv = \"cartpole\"\n"
                                  "report-every-s = 5\nlog-interval-s = 1\n")));  // output only
  // 2: another env.
  runs.push_back(load_run(run_dir("g2", "env = \"acrobot\"\nmax-frames = 2000\nseed = 1\n")));
  // 3, 4: no config.toml, each alone.
  runs.push_back(load_run(run_dir("g3", "")));
  runs.push_back(load_run(run_dir("g4", "")));
  // 5: the default seed, otherwise 0's config.
  runs.push_back(load_run(run_dir("g5", "env = \"cartpole\"\nmax-frames = 2000\n")));
  // 6: another max-frames.
  runs.push_back(load_run(run_dir("g6", "env = \"cartpole\"\nmax-frames = 4000\nseed = 1\n")));
  CHECK(runs[0].seed == "1");
  CHECK(runs[1].seed == "2");
  CHECK(runs[5].seed.empty());
  const auto groups = group_by_config(runs);
  CHECK(groups == std::vector<std::vector<std::size_t>>{{0, 1, 5}, {2}, {3}, {4}, {6}});
}

TEST_CASE("a run saved before a setting's rename is a seed of one saved after it", "[report]") {
  std::vector<RunData> runs;
  runs.push_back(load_run(run_dir("r0", "env = \"cartpole\"\nlearner-cores = \"reserve\"\nseed = 1\n")));
  runs.push_back(load_run(run_dir("r1", "env = \"cartpole\"\nlearner_cpus = \"reserve\"\nseed = 2\n")));
  runs.push_back(load_run(run_dir("r2", "env = \"cartpole\"\nlearner-cpus = \"share\"\nseed = 3\n")));
  CHECK(group_by_config(runs) == std::vector<std::vector<std::size_t>>{{0, 1}, {2}});
}
