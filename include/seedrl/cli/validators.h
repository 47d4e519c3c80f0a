// CLI11 validators shared by the commands.
#pragma once

#include <CLI/CLI.hpp>

namespace seedrl {

// Accepts a registered environment name; the error lists the valid ones.
CLI::Validator env_name_validator();

}  // namespace seedrl
