// The live dashboard (report/dashboard_server.h) over real HTTP: the page and
// its data come from the run's files and follow them; the token; 404s; bad
// and oversized requests get an error and the server goes on; the flag checks.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <boost/asio.hpp>
#include <nlohmann/json.hpp>

#include "../cli/one_line_error.h"
#include "../cli/run_binary.h"
#include "http_get.h"
#include "seedrl/report/dashboard_server.h"
#include "seedrl/trainer/run_dashboard.h"

using namespace seedrl;
using namespace seedrl::test;

namespace {

std::string metrics_line(int i) {
  const nlohmann::json j = {{"frames", (i + 1) * 1000},
                            {"wall_seconds", i * 0.5},
                            {"fps", 2000 + i},
                            {"total_loss", 1.0 / (i + 1)},
                            {"episode_return_mean", 10 + i}};
  return j.dump() + "\n";
}

std::string make_run(const std::string& name, int lines) {
  const std::string dir = temp_dir(name);
  std::ofstream out(dir + "/metrics.jsonl", std::ios::binary);
  for (int i = 0; i < lines; ++i) out << metrics_line(i);
  std::ofstream(dir + "/config.toml") << "env = \"cartpole\"\nseed = 3\n";
  return dir;
}

void append_line(const std::string& dir, int i) {
  std::ofstream out(dir + "/metrics.jsonl", std::ios::binary | std::ios::app);
  out << metrics_line(i);
}

// The (frames, value) points of the chart titled `title`.
nlohmann::json points_of(const nlohmann::json& data, const std::string& title) {
  for (const auto& chart : data["charts"])
    if (chart["title"] == title && chart["series"].size() == 1) return chart["series"][0]["points"];
  return nlohmann::json::array();
}

report::DashboardConfig config_for(const std::string& logdir) {
  report::DashboardConfig c;
  c.logdir = logdir;
  c.rebuild_every = std::chrono::milliseconds(0);
  return c;
}

// Waits for `done`, polling; the deadline only catches hangs.
template <class F>
bool eventually(F done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

}  // namespace

TEST_CASE("the dashboard serves the report page and data that follow the metrics file", "[report][dashboard]") {
  const std::string dir = make_run("dashboard_live", 7);
  report::DashboardServer server(config_for(dir));
  REQUIRE(server.port() != 0);
  CHECK(server.url() == "http://127.0.0.1:" + std::to_string(server.port()) + "/");

  const HttpResult page = http_get(server.port(), "/");
  REQUIRE(page.status == 200);
  CHECK(page.body.find("<div class=\"chart\" id=\"chart0\">") != std::string::npos);
  CHECK(page.body.find("id=\"report-data\"") != std::string::npos);
  CHECK(page.body.find("data-live=\"") != std::string::npos);
  CHECK(page.body.find("new Dygraph(") != std::string::npos);

  HttpResult data = http_get(server.port(), "/data");
  REQUIRE(data.status == 200);
  nlohmann::json j = nlohmann::json::parse(data.body);
  nlohmann::json expected = nlohmann::json::array();
  for (int i = 0; i < 7; ++i) expected.push_back({(i + 1) * 1000, 2000 + i});
  CHECK(points_of(j, "fps") == expected);
  CHECK(j["runs_html"].get<std::string>().find("<caption>config.toml</caption>") != std::string::npos);

  append_line(dir, 7);
  expected.push_back({8000, 2007});
  CHECK(eventually([&] {
    data = http_get(server.port(), "/data");
    return data.status == 200 && points_of(nlohmann::json::parse(data.body), "fps") == expected;
  }));
}

TEST_CASE("the dashboard answers unknown paths, other methods and bad requests, and goes on", "[report][dashboard]") {
  const std::string dir = make_run("dashboard_bad", 3);
  report::DashboardConfig c = config_for(dir);
  c.max_connections = 2;
  report::DashboardServer server(c);
  const auto port = server.port();
  CHECK(http_get(port, "/nope").status == 404);
  CHECK(http_get(port, "/data/../etc/passwd").status == 404);
  CHECK(http_raw(port, "POST /data HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi").status == 405);
  const int garbage = http_raw(port, "\x01\x02 garbage \xff\r\n\r\n").status;
  CHECK((garbage == 0 || garbage == 400));
  const int huge_header =
      http_raw(port, "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(64 * 1024, 'a') + "\r\n\r\n").status;
  CHECK((huge_header == 0 || huge_header == 431));
  const int huge_body =
      http_raw(port, "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n" + std::string(4096, 'b')).status;
  CHECK((huge_body == 0 || huge_body == 413));
  CHECK(http_get(port, "/").status == 200);

  // Connections beyond the cap are closed; idle ones do not stop the others
  // once they go.
  boost::asio::io_context io;
  {
    std::vector<boost::asio::ip::tcp::socket> idle;
    for (int i = 0; i < 2; ++i) {
      idle.emplace_back(io);
      idle.back().connect({boost::asio::ip::make_address("127.0.0.1"), port});
    }
    // Accepted in order: once the server counts both, a third gets no answer.
    CHECK(eventually([&] { return http_get(port, "/").status == 0; }));
  }
  CHECK(eventually([&] { return http_get(port, "/").status == 200; }));
  CHECK(eventually([&] { return http_get(port, "/data").status == 200; }));
}

TEST_CASE("the dashboard closes a connection that stalls mid-request", "[report][dashboard]") {
  const std::string dir = make_run("dashboard_idle", 3);
  report::DashboardConfig c = config_for(dir);
  c.idle_timeout = std::chrono::milliseconds(200);
  report::DashboardServer server(c);
  const HttpResult stalled = http_raw(server.port(), "GET / HTTP/1.1\r\nHost: x\r\n");  // no blank line: unfinished
  CHECK(stalled.status == 0);
  CHECK_FALSE(stalled.timed_out);  // the server closed it, long before the client gave up
  CHECK(http_get(server.port(), "/").status == 200);
}

TEST_CASE("with a token the dashboard answers only requests that carry it", "[report][dashboard]") {
  const std::string dir = make_run("dashboard_token", 3);
  report::DashboardConfig c = config_for(dir);
  c.token = "s3cr&t";
  report::DashboardServer server(c);
  CHECK(http_get(server.port(), "/").status == 401);
  CHECK(http_get(server.port(), "/data").status == 401);
  CHECK(http_get(server.port(), "/nope").status == 401);  // no probing for paths either
  CHECK(http_get(server.port(), "/?token=s3cr").status == 401);
  CHECK(http_get(server.port(), "/data?token=s3cr%26").status == 401);
  CHECK(http_get(server.port(), "/?token=s3cr%26t").status == 200);
  CHECK(http_get(server.port(), "/data?x=1&token=s3cr%26t").status == 200);
}

TEST_CASE("a dashboard beyond loopback needs --token-file", "[report][dashboard]") {
  TrainConfig c;
  c.dashboard = "8080";
  CHECK_NOTHROW(validate_dashboard_flags(c));
  c.dashboard = "127.0.0.1:0";
  CHECK_NOTHROW(validate_dashboard_flags(c));
  c.dashboard = "0.0.0.0:8080";
  CHECK_THROWS_WITH(validate_dashboard_flags(c), Catch::StartsWith("--dashboard: 0.0.0.0:8080 serves beyond loopback"));
  c.dashboard = "host:port";
  CHECK_THROWS_WITH(validate_dashboard_flags(c), Catch::StartsWith("--dashboard:"));
  const std::string dir = temp_dir("dashboard_flags");
  std::ofstream(dir + "/token") << "secret\n";
  c.dashboard = "0.0.0.0:8080";
  c.token_file = dir + "/token";
  CHECK_NOTHROW(validate_dashboard_flags(c));
  c.token_file = dir + "/missing";
  CHECK_THROWS_WITH(validate_dashboard_flags(c), Catch::StartsWith("--token-file"));
}

TEST_CASE("seedrl train refuses a public --dashboard without a token in one line", "[cli][report][dashboard]") {
  const std::string dir = temp_dir("dashboard_cli_refused");
  check_one_line_error(
      {"train", "--env", "cartpole", "--max-frames", "1000", "--dashboard", "0.0.0.0:0", "--logdir", dir},
      "--dashboard");
}

TEST_CASE("a --dashboard port in use is refused before an earlier run in --logdir is moved aside",
          "[cli][report][dashboard][train]") {
  const std::string dir = temp_dir("dashboard_busy");
  std::ofstream(dir + "/checkpoint.pt") << "earlier weights";
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor taken(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
  const std::string port = std::to_string(taken.local_endpoint().port());
  check_one_line_error({"train", "--env", "cartpole", "--max-frames", "1000", "--dashboard", port, "--logdir", dir},
                       "--dashboard");
  CHECK(read_file(dir + "/checkpoint.pt") == "earlier weights");
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    CHECK(entry.path().filename().string().rfind("replaced-", 0) != 0);
}

TEST_CASE("a train run serves its dashboard and says where", "[cli][report][dashboard][train]") {
  const std::string dir = temp_dir("dashboard_train");
  RunResult r = run_seedrl({"train", "--env", "cartpole", "--max-frames", "2000", "--actors", "2", "--batch-size", "2",
                            "--log-interval-s", "0.05", "--dashboard", "0", "--logdir", dir});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("dashboard: http://127.0.0.1:"));
  // The URL file is there while the server serves (browser_test reads it
  // then) and goes with it: none is left pointing at a stopped server.
  CHECK_FALSE(std::filesystem::exists(dir + "/dashboard.url"));
}
