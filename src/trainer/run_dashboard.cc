#include "seedrl/trainer/run_dashboard.h"

#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <utility>

#include <spdlog/spdlog.h>

#include "seedrl/io/replace_file.h"
#include "seedrl/net/protocol.h"

namespace seedrl {

void validate_dashboard_flags(const TrainConfig& c) {
  if (c.dashboard.empty()) return;
  const net::HostPort hp = net::parse_host_port(c.dashboard, "--dashboard");
  if (!net::is_loopback_host(hp.host) && c.token_file.empty())
    throw std::invalid_argument("--dashboard: " + c.dashboard +
                                " serves beyond loopback; give a secret the page URL must carry with --token-file");
  if (!c.token_file.empty()) net::read_token_file(c.token_file, "--token-file");
}

RunDashboard::RunDashboard(std::unique_ptr<report::DashboardServer> server, std::string url_file, bool with_token)
    : server_(std::move(server)), url_file_(std::move(url_file)), with_token_(with_token) {}

RunDashboard::~RunDashboard() {
  server_.reset();
  if (!announced_) return;
  std::error_code ec;
  std::filesystem::remove(url_file_, ec);  // best effort: the run's outputs are what matter
}

void RunDashboard::announce() {
  spdlog::info("dashboard: {}{}", server_->url(), with_token_ ? "?token=<the secret in --token-file>" : "");
  replace_file(url_file_, server_->url() + "\n");
  announced_ = true;
}

std::unique_ptr<RunDashboard> listen_dashboard(const TrainConfig& c) {
  if (c.dashboard.empty()) return nullptr;
  const net::HostPort hp = net::parse_host_port(c.dashboard, "--dashboard");
  report::DashboardConfig dc;
  dc.logdir = c.logdir;
  dc.host = hp.host;
  dc.port = hp.port;
  if (!c.token_file.empty()) dc.token = net::read_token_file(c.token_file, "--token-file");
  auto server = std::make_unique<report::DashboardServer>(dc);
  const std::string url_file = (std::filesystem::path(c.logdir) / "dashboard.url").string();
  return std::make_unique<RunDashboard>(std::move(server), url_file, !dc.token.empty());
}

}  // namespace seedrl
