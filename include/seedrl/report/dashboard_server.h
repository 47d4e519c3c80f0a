// `seedrl train --dashboard`: the report page of one run served live over
// HTTP (Boost.Beast) from the training process. "/" is the page (as `seedrl
// report` writes it, plus a script that polls), "/data" its chart data and
// tables as JSON (html_report.h's page_data), both built from the run's files
// by report.h's build_page; anything else 404.
//
// One thread of its own serves every connection: it only reads the run's
// files and never waits on training. Requests are small GETs (a larger
// header or any body is refused), connections are capped and idle ones
// closed; a bad request gets an error status and its connection closed.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace seedrl::report {

struct DashboardConfig {
  std::string logdir;
  std::string host = "127.0.0.1";  // an IP address or "localhost"
  std::uint16_t port = 0;          // 0: a free port (see port())
  // Non-empty: every request carries it as ?token=... (compared in constant
  // time), else 401. Callers require one beyond loopback.
  std::string token;
  double poll_s = 3;         // the page's refresh interval
  int max_connections = 32;  // beyond: closed at once
  std::chrono::milliseconds idle_timeout{30000};
  // The JSON and page are rebuilt from the files at most this often; requests
  // in between get the last ones (reading a long run's metrics costs).
  std::chrono::milliseconds rebuild_every{1000};
};

class DashboardServer {
 public:
  // Listens and starts serving. Throws std::invalid_argument naming
  // --dashboard when it cannot listen.
  explicit DashboardServer(DashboardConfig config);
  ~DashboardServer();  // stops serving and joins its thread
  DashboardServer(const DashboardServer&) = delete;
  DashboardServer& operator=(const DashboardServer&) = delete;

  std::uint16_t port() const;
  // http://HOST:PORT/ (without the token).
  std::string url() const;

  struct Impl;  // defined where it serves (its sessions name it)

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace seedrl::report
