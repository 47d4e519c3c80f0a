// What a finished `seedrl train` left in its run directory, parsed.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "run_binary.h"

namespace seedrl::test {

// The run's summary.json (frames, episodes, returns, whether it completed).
inline nlohmann::json read_summary(const std::string& logdir) {
  return nlohmann::json::parse(read_file(logdir + "/summary.json"));
}

}  // namespace seedrl::test
