// The train command's --dashboard glue: the flag's checks, and the server
// (report/dashboard_server.h) a trainer holds while it runs.
#pragma once

#include <memory>
#include <string>

#include "seedrl/report/dashboard_server.h"
#include "seedrl/trainer/train_config.h"

namespace seedrl {

// Throws std::invalid_argument naming --dashboard (a malformed HOST:PORT, an
// address beyond loopback without --token-file) or --token-file.
void validate_dashboard_flags(const TrainConfig& config);

// A run's dashboard: serves until destroyed; once announced, its URL
// (without the token) is in LOGDIR/dashboard.url while it serves, and the
// file goes with it, so no URL is left pointing at a server that has stopped.
class RunDashboard {
 public:
  RunDashboard(std::unique_ptr<report::DashboardServer> server, std::string url_file, bool with_token);
  ~RunDashboard();
  RunDashboard(const RunDashboard&) = delete;
  RunDashboard& operator=(const RunDashboard&) = delete;

  // Logs the URL and writes LOGDIR/dashboard.url.
  void announce();

 private:
  std::unique_ptr<report::DashboardServer> server_;
  std::string url_file_;
  bool with_token_;
  bool announced_ = false;
};

// nullptr without --dashboard. Listens at once, before the run directory is
// touched, so that a port in use is refused (naming --dashboard) before an
// earlier run in --logdir is moved aside.
std::unique_ptr<RunDashboard> listen_dashboard(const TrainConfig& config);

}  // namespace seedrl
