// The report and the live dashboard in a real browser: headless Chromium
// (Debian's chromium) loads the page, runs its script and dumps the DOM, in
// which the page's script recorded what it drew (#report-state, see
// report/html_report.h). Screenshots are kept beside the test binary, in
// browser-artifacts/. Skipped, with the reason printed, where
// /usr/bin/chromium is absent.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "../cli/run_binary.h"

using namespace seedrl::test;
namespace fs = std::filesystem;

namespace {

const char* kChromium = "/usr/bin/chromium";

bool have_chromium() {
  if (access(kChromium, X_OK) == 0) return true;
  WARN("browser test skipped: " << kChromium << " is absent (apt-get install chromium)");
  return false;
}

std::string artifact(const std::string& name) {
  const fs::path dir = fs::read_symlink("/proc/self/exe").parent_path() / "browser-artifacts";
  fs::create_directories(dir);
  return (dir / name).string();
}

struct PageState {
  int status = -1;       // chromium's exit status
  nlohmann::json state;  // #report-state; null when the page did not write it
  std::string log;       // chromium's stderr, console messages included
};

std::string unescape_text(std::string s) {
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}})
    for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
  return s;
}

// Loads `url` in a fresh headless Chromium; the page's timers run for
// `budget_ms` of virtual time (which stands still while a fetch is pending).
// `offline`: every host name fails to resolve.
PageState load_page(const std::string& url, int budget_ms, const std::string& screenshot, bool offline) {
  const std::string dir = temp_dir("chromium");
  // The background-networking flags matter: without them it can hang on
  // refused connections. The timeout only catches hangs.
  std::string cmd = std::string("timeout -k 10 300 ") + kChromium +
                    " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
                    " --disable-background-networking --disable-component-update --disable-sync"
                    " --enable-logging=stderr --v=0 --window-size=1280,2000 --user-data-dir='" +
                    dir + "/profile'" + " --virtual-time-budget=" + std::to_string(budget_ms);
  if (offline) cmd += " '--host-resolver-rules=MAP * ~NOTFOUND'";
  if (!screenshot.empty()) cmd += " '--screenshot=" + screenshot + "'";
  cmd += " --dump-dom '" + url + "' > '" + dir + "/dom.html' 2> '" + dir + "/log.txt'";
  PageState page;
  const int rc = std::system(cmd.c_str());
  page.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  page.log = read_file(dir + "/log.txt");
  const std::string dom = read_file(dir + "/dom.html");
  const std::string open = "<div id=\"report-state\" hidden=\"\">";
  const auto from = dom.find(open);
  if (from == std::string::npos) return page;
  const auto to = dom.find("</div>", from);
  page.state =
      nlohmann::json::parse(unescape_text(dom.substr(from + open.size(), to - from - open.size())), nullptr, false);
  return page;
}

void check_loaded_cleanly(const PageState& page) {
  INFO(page.log);
  REQUIRE(page.status == 0);
  REQUIRE(page.state.is_object());
  CHECK(page.state["ready"] == true);
  CHECK(page.state["errors"] == nlohmann::json::array());
  CHECK(page.log.find("Uncaught") == std::string::npos);
}

void write_run(const std::string& dir, int lines, int nulls, double offset, int seed) {
  fs::create_directories(dir);
  std::ofstream out(dir + "/metrics.jsonl", std::ios::binary);
  for (int i = 0; i < lines; ++i) {
    nlohmann::json j = {
        {"frames", i * 1000}, {"wall_seconds", i * 0.5}, {"fps", 2000 + i}, {"total_loss", 1.0 / (i + 1)}};
    j["episode_return_mean"] = i < nulls ? nlohmann::json(nullptr) : nlohmann::json(i * (1 + 0.1 * offset) + offset);
    out << j.dump() << "\n";
  }
  std::ofstream(dir + "/config.toml") << "env = \"cartpole\"\nmax-frames = 50000\nseed = " << seed << "\n";
}

// The chart ids of a page made from write_run's runs: return against frames
// and wall time, then fps and total_loss (report_charts.cc's order).
constexpr const char* kReturnByFrames = "chart0";
constexpr const char* kReturnByTime = "chart1";
constexpr const char* kFps = "chart2";
constexpr const char* kLoss = "chart3";

}  // namespace

TEST_CASE("a report opens offline in Chromium with every point drawn", "[browser][report]") {
  if (!have_chromium()) return;
  const std::string root = temp_dir("browser_report");
  write_run(root + "/run", 50, 3, 0, 1);
  RunResult r = run_seedrl({"report", root + "/run", "-o", root + "/report.html"});
  INFO(r.output);
  REQUIRE(r.status == 0);

  const PageState page = load_page("file://" + root + "/report.html", 5000, artifact("report-one-run.png"), true);
  check_loaded_cleanly(page);
  const nlohmann::json& charts = page.state["charts"];
  CHECK(charts.size() == 4);
  CHECK(charts[kReturnByFrames]["rows"] == 47);  // the first 3 lines have no return yet
  CHECK(charts[kReturnByTime]["rows"] == 47);
  CHECK(charts[kFps]["rows"] == 50);
  CHECK(charts[kLoss]["rows"] == 50);
  CHECK(charts[kReturnByFrames]["band"] == 0);  // one run: no band
  CHECK(fs::file_size(artifact("report-one-run.png")) > 10000);
}

TEST_CASE("a report of three seeds shows their mean with a band in Chromium", "[browser][report]") {
  if (!have_chromium()) return;
  const std::string root = temp_dir("browser_seeds");
  std::vector<std::string> args = {"report"};
  for (int seed = 1; seed <= 3; ++seed) {
    write_run(root + "/seed" + std::to_string(seed), 40, 2, seed, seed);
    args.push_back(root + "/seed" + std::to_string(seed));
  }
  args.insert(args.end(), {"-o", root + "/report.html"});
  RunResult r = run_seedrl(args);
  INFO(r.output);
  REQUIRE(r.status == 0);

  const std::string shot = artifact("report-three-seeds.png");
  const PageState page = load_page("file://" + root + "/report.html", 5000, shot, true);
  check_loaded_cleanly(page);
  const nlohmann::json& chart = page.state["charts"][kReturnByFrames];
  CHECK(chart["bars"] == true);
  CHECK(chart["series"] == nlohmann::json::array({100}));  // one mean curve on the 100-point grid
  CHECK(chart["rows"] == 100);
  CHECK(chart["band"] == 100);  // the seeds differ everywhere: a band of nonzero width at each point
  CHECK(page.state["charts"][kFps]["series"] == nlohmann::json::array({40, 40, 40}));  // one line per seed
  CHECK(fs::file_size(shot) > 10000);
}

// A run whose numbers defeat SI-prefixed axes: an importance weight within
// 1e-4 of 1 (dygraphs' own labels read "999.95m"), losses below 1 ("400m"),
// a learning rate of 1e-7, returns in the millions; and a target reached.
void write_awkward_run(const std::string& dir) {
  fs::create_directories(dir);
  std::ofstream out(dir + "/metrics.jsonl", std::ios::binary);
  for (int i = 0; i < 60; ++i) {
    nlohmann::json j = {{"frames", i * 50000},
                        {"wall_seconds", i * 2.5},
                        {"episode_return_mean", 2.0e6 + 1000.0 * i},
                        {"mean_rho", 0.99990 + 0.0000025 * i},
                        {"total_loss", 0.4 - 0.002 * i},
                        {"learning_rate", 1e-7 * (60 - i)}};
    // --target-return's keys: null until the run reaches it at row 30.
    j["target_return"] = 2.03e6;
    for (const char* key : {"target_frames", "target_wall_seconds", "target_mean_return"}) j[key] = nullptr;
    if (i >= 30) {
      j["target_frames"] = 30 * 50000;
      j["target_wall_seconds"] = 30 * 2.5;
      j["target_mean_return"] = 2.03e6;
    }
    out << j.dump() << "\n";
  }
  std::ofstream(dir + "/config.toml") << "env = \"cartpole\"\nmax-frames = 3000000\n";
}

TEST_CASE("report axes show plain numbers, titles, the target marker and the legend off the plot",
          "[browser][report]") {
  if (!have_chromium()) return;
  const std::string root = temp_dir("browser_axes");
  write_awkward_run(root + "/run");
  RunResult r = run_seedrl({"report", root + "/run", "-o", root + "/report.html"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const PageState page = load_page("file://" + root + "/report.html", 5000, artifact("report-axes.png"), true);
  check_loaded_cleanly(page);
  INFO(page.state.dump());
  // Plain decimals, or scientific: digits, one point, an exponent; never a letter prefix.
  const std::regex plain(R"(-?[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?)");
  const std::regex count(R"([0-9]+(\.[0-9]+)?[kMB]?)");
  auto numbers = [&](const nlohmann::json& ticks, const std::regex& form) {
    std::vector<std::string> out;
    for (const auto& t : ticks) {
      const std::string text = t.get<std::string>();
      CHECK(std::regex_match(text, form));
      out.push_back(text);
    }
    return out;
  };
  // chart order (report_charts.cc): return by frames, by time, total_loss,
  // learning_rate, then mean_rho (other keys in name order).
  const nlohmann::json& charts = page.state["charts"];
  REQUIRE(charts.size() == 5);
  for (const auto& [id, chart] : charts.items()) {
    INFO(id);
    CHECK_FALSE(chart["ylabel"].get<std::string>().empty());
    CHECK_FALSE(chart["xlabel"].get<std::string>().empty());
    CHECK(chart["legend_in_plot"] == false);
    CHECK(chart["title_overlaps_ticks"] == false);
    CHECK_FALSE(chart["legend"].get<std::string>().empty());
    const auto y = numbers(chart["yticks"], plain);
    CHECK(y.size() >= 3);
    CHECK(std::set<std::string>(y.begin(), y.end()).size() == y.size());  // every tick told apart
    numbers(chart["xticks"], id == "chart1" ? plain : count);
  }
  CHECK(charts["chart0"]["ylabel"] == "episode return");
  CHECK(charts["chart0"]["markers"] == 1);  // where the run reached its --target-return
  CHECK(charts["chart1"]["markers"] == 1);
  CHECK(charts["chart2"]["markers"] == 0);
  CHECK(charts["chart0"]["xlabel"] == "frames");
  CHECK(charts["chart1"]["xlabel"] == "wall seconds");
  // The ticks near 1 read as the numbers they are.
  const nlohmann::json& rho = charts["chart4"];
  CHECK(rho["ylabel"] == "importance weight");
  for (const auto& t : rho["yticks"]) {
    const double v = std::stod(t.get<std::string>());
    CHECK(v > 0.9998);
    CHECK(v < 1.0002);
  }
  for (const auto& t : charts["chart2"]["yticks"]) CHECK(std::stod(t.get<std::string>()) < 1.0);   // losses
  for (const auto& t : charts["chart3"]["yticks"]) CHECK(std::stod(t.get<std::string>()) < 1e-5);  // learning rate
}

TEST_CASE("the live dashboard charts grow in Chromium while a run trains", "[browser][report][dashboard][train]") {
  if (!have_chromium()) return;
  const std::string dir = temp_dir("browser_live");
  const std::string shot = artifact("live-dashboard.png");
  PageState page;
  bool grew = false;
  int attempts = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
  // Each load polls /data about a hundred times in virtual time, which takes
  // long enough in real time for the run to add metrics lines; on a loaded
  // machine a load may see none added, and the next load tries again. Lines
  // every 0.25 s: a chart holds at most 2000 points, which such a run
  // reaches only after the deadline.
  RunResult r = run_seedrl_and_signal_when(
      {"train", "--env", "cartpole", "--max-frames", "1000000000", "--actors", "2", "--batch-size", "2",
       "--log-interval-s", "0.25", "--report-every-s", "0", "--dashboard", "0", "--logdir", dir},
      [&](const std::string&, int) {
        if (!fs::exists(dir + "/dashboard.url") || read_file(dir + "/metrics.jsonl").empty()) return false;
        std::string url = read_file(dir + "/dashboard.url");
        url.erase(url.find_last_not_of("\n") + 1);
        page = load_page(url, 300000, shot, false);
        ++attempts;
        const nlohmann::json* chart = page.state.is_object() ? &page.state["charts"][kReturnByFrames] : nullptr;
        grew = chart && chart->is_object() && chart->value("rows", 0) > chart->value("first_rows", 0);
        return grew || page.status != 0 || std::chrono::steady_clock::now() > deadline;
      },
      SIGINT, 600);
  INFO(r.output);
  INFO("attempts: " << attempts << ", state: " << page.state.dump());
  check_loaded_cleanly(page);
  CHECK(grew);
  CHECK(page.state["updates"].get<int>() > 0);
  CHECK(fs::file_size(shot) > 10000);
}
