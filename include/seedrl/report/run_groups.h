// Which runs are seeds of one configuration: those whose config.toml are the
// same once the seed and logdir keys are left out. A run without config.toml
// is a group of its own.
#pragma once

#include <cstddef>
#include <vector>

#include "seedrl/report/run_data.h"

namespace seedrl::report {

// Indices into `runs`, one list per group, groups in the order of their
// first run, runs in the given order.
std::vector<std::vector<std::size_t>> group_by_config(const std::vector<RunData>& runs);

}  // namespace seedrl::report
