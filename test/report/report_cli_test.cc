// `seedrl report` as a user runs it: a self-contained page whose chart data
// and tables come from the run directories, escaped; one-line errors for bad
// input; and the report `seedrl train` leaves in its logdir.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "../cli/one_line_error.h"
#include "../cli/run_binary.h"

using namespace seedrl::test;
namespace fs = std::filesystem;

namespace {

void write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// A run of `lines` metrics lines; episode_return_mean is null in the first
// `nulls`. `config` is config.toml's text ("" for none).
std::string make_run(const std::string& dir, int lines, int nulls, double offset, const std::string& config) {
  fs::create_directories(dir);
  std::string text;
  for (int i = 0; i < lines; ++i) {
    nlohmann::json j = {{"frames", i * 1000},
                        {"wall_seconds", i * 0.5},
                        {"fps", 2000 + i},
                        {"total_loss", 1.0 / (i + 1)},
                        {"entropy", 0.69}};
    j["episode_return_mean"] = i < nulls ? nlohmann::json(nullptr) : nlohmann::json(i + offset);
    text += j.dump() + "\n";
  }
  write(dir + "/metrics.jsonl", text);
  if (!config.empty()) write(dir + "/config.toml", config);
  return dir;
}

nlohmann::json report_data(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"report-data\">";
  const auto from = html.find(open);
  REQUIRE(from != std::string::npos);
  const auto to = html.find("</script>", from);
  REQUIRE(to != std::string::npos);
  return nlohmann::json::parse(html.substr(from + open.size(), to - from - open.size()));
}

std::size_t points_of(const nlohmann::json& chart, const std::string& series) {
  for (const auto& s : chart["series"])
    if (s["name"] == series) return s["points"].size();
  FAIL("no series " << series << " in " << chart["title"]);
  return 0;
}

}  // namespace

TEST_CASE("seedrl report writes one page with every run's curves, offline", "[cli][report]") {
  const std::string root = temp_dir("report_page");
  const std::string seeds = "env = \"cartpole\"\nmax-frames = 50000\nseed = ";
  make_run(root + "/s1", 50, 3, 0, seeds + "1\n");
  make_run(root + "/s2", 40, 5, 2, seeds + "2\nlogdir = \"x\"\n");
  // A config value and a directory name that try to become markup.
  const std::string evil_dir = root + "/<b>bold";
  make_run(evil_dir, 30, 0, 0, "env = \"</script><script>alert(1)</script>\"\nseed = 1\n");
  const std::string out = root + "/out.html";
  RunResult r = run_seedrl({"report", root + "/s1", root + "/s2", evil_dir, "-o", out});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const std::string html = read_file(out);

  // Self-contained: dygraphs inlined, nothing fetched.
  const std::string dygraphs = read_file(dygraphs_js());
  REQUIRE(dygraphs.size() > 4000);
  CHECK(html.find(dygraphs.substr(1000, 2000)) != std::string::npos);
  CHECK_FALSE(
      std::regex_search(html, std::regex(R"(<(script|link|img|iframe)[^>]*(src|href)\s*=)", std::regex::icase)));
  CHECK_FALSE(std::regex_search(html, std::regex(R"((src|href)\s*=\s*["']?https?://)", std::regex::icase)));

  // Nothing from the files became markup.
  CHECK(html.find("<script><script>alert(1)") == std::string::npos);
  CHECK(html.find("<script>alert(1)") == std::string::npos);
  CHECK(html.find("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
  CHECK(html.find("<b>bold") == std::string::npos);
  CHECK(html.find("&lt;b&gt;bold") != std::string::npos);

  const nlohmann::json data = report_data(html);
  const auto& charts = data["charts"];
  REQUIRE(charts.size() >= 5);  // return x2, fps, total_loss, entropy
  // s1 and s2 differ only in seed: their mean, on 100 points, with a band.
  const std::string group = "s1, s2 (mean of 2 seeds)";
  const std::string evil = "&lt;b&gt;bold";
  for (int c : {0, 1}) {
    CHECK(charts[c]["bars"] == true);
    CHECK(charts[c]["series"].size() == 2);
    CHECK(points_of(charts[c], group) == 100);
    CHECK(points_of(charts[c], evil) == 30);
  }
  // The frames both seeds cover: from the later first return (s2's, at
  // 5000) to the earlier last frame (s2's, 39000).
  CHECK(charts[0]["series"][0]["points"][0][0] == 5000.0);
  CHECK(charts[0]["series"][0]["points"][99][0] == 39000.0);
  for (const auto& point : charts[0]["series"][0]["points"]) {
    CHECK(point[1].get<double>() <= point[2].get<double>());
    CHECK(point[2].get<double>() <= point[3].get<double>());
  }
  bool fps = false;
  for (const auto& chart : charts) {
    if (chart["title"] != "fps") continue;
    fps = true;
    CHECK(chart["bars"] == false);
    CHECK(points_of(chart, "s1") == 50);
    CHECK(points_of(chart, "s2") == 40);
    CHECK(points_of(chart, evil) == 30);
  }
  CHECK(fps);
}

TEST_CASE("seedrl report writes into the logdir and shows a bench file", "[cli][report]") {
  const std::string dir = make_run(temp_dir("report_default") + "/run", 5, 1, 0, "");
  const std::string bench = dir + "/../bench.json";
  write(bench, R"({"inference": {"latency_p50_us": 123.5}, "slowest_stage": "env", "breakdown": [1, 2]})");
  RunResult r = run_seedrl({"report", dir, "--bench", bench});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const std::string html = read_file(dir + "/report.html");
  CHECK(html.find("<th>inference.latency_p50_us</th><td>123.5</td>") != std::string::npos);
  CHECK(html.find("<th>breakdown[1]</th><td>2</td>") != std::string::npos);
  CHECK(html.find("no config.toml") != std::string::npos);
}

TEST_CASE("seedrl report refuses bad input in one line", "[cli][report]") {
  const std::string root = temp_dir("report_errors");
  check_one_line_error({"report", root + "/missing"}, root + "/missing: no such run directory");
  fs::create_directories(root + "/empty");
  check_one_line_error({"report", root + "/empty"}, root + "/empty: no metrics.jsonl");
  const std::string bad = make_run(root + "/bad", 4, 0, 0, "");
  write(bad + "/metrics.jsonl", "{\"frames\": 1}\n{\"frames\": 2}\n{\"frames\": 3, oops}\n{\"frames\": 4}\n");
  check_one_line_error({"report", bad}, bad + "/metrics.jsonl:3:");
  const std::string good = make_run(root + "/good", 4, 0, 0, "");
  write(root + "/bench.json", "{\"a\": ");
  check_one_line_error({"report", good, "--bench", root + "/bench.json"}, "--bench " + root + "/bench.json");
  check_one_line_error({"report", good, "--bench", root + "/none.json"}, "--bench " + root + "/none.json");
  CHECK_FALSE(fs::exists(good + "/report.html"));
}

TEST_CASE("a train run leaves report.html in its logdir", "[cli][report][train]") {
  const std::string dir = temp_dir("report_train");
  RunResult r = run_seedrl({"train", "--env", "cartpole", "--max-frames", "2000", "--actors", "2", "--batch-size", "2",
                            "--log-interval-s", "0.05", "--logdir", dir});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const std::string html = read_file(dir + "/report.html");
  const nlohmann::json data = report_data(html);
  REQUIRE(data["charts"].size() >= 3);
  bool fps = false;
  for (const auto& chart : data["charts"]) fps |= chart["title"] == "fps" && chart["series"].size() == 1;
  CHECK(fps);
  CHECK(html.find("<caption>config.toml</caption>") != std::string::npos);
  CHECK(html.find("<caption>summary.json</caption>") != std::string::npos);
}

TEST_CASE("a report that cannot be written does not stop training", "[cli][report][train]") {
  const std::string dir = temp_dir("report_train_fails");
  // A directory where the report goes: every write of it fails.
  fs::create_directories(dir + "/report.html/inside");
  RunResult r = run_seedrl({"train", "--env", "cartpole", "--max-frames", "3000", "--actors", "2", "--batch-size", "2",
                            "--log-interval-s", "0.05", "--report-every-s", "0.05", "--logdir", dir});
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(fs::exists(dir + "/summary.json"));
  // One warning, however often the report was due.
  std::size_t warnings = 0;
  for (auto at = r.output.find("report.html not written"); at != std::string::npos;
       at = r.output.find("report.html not written", at + 1))
    ++warnings;
  CHECK(warnings == 1);
}
