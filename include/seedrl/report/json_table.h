// A JSON document (summary.json, a bench file) as rows of a table: nested
// keys joined with '.', array elements as key[i].
#pragma once

#include <cstddef>

#include <nlohmann/json.hpp>

#include "seedrl/report/run_data.h"

namespace seedrl::report {

// At most `max_rows` rows (a row saying how many were left out ends a longer
// table). Numbers print as integers when they are, else to 6 digits.
Table flatten_json(const nlohmann::json& j, std::size_t max_rows = 2000);

}  // namespace seedrl::report
