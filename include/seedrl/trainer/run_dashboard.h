// The train command's --dashboard glue: the flag's checks, and the server
// (report/dashboard_server.h) a trainer holds while it runs.
#pragma once

#include <memory>

#include "seedrl/report/dashboard_server.h"
#include "seedrl/trainer/train_config.h"

namespace seedrl {

// Throws std::invalid_argument naming --dashboard (a malformed HOST:PORT, an
// address beyond loopback without --token-file) or --token-file.
void validate_dashboard_flags(const TrainConfig& config);

// nullptr without --dashboard. Serves until destroyed; logs its URL and
// writes it to LOGDIR/dashboard.url (without the token).
std::unique_ptr<report::DashboardServer> start_dashboard(const TrainConfig& config);

}  // namespace seedrl
