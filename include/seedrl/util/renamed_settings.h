// Settings renamed since a release keep their old names as aliases: the
// command line (cli/renamed_flags.h), a config file and a run's saved
// config.toml (read back by `seedrl report`) all map old names through this
// one table.
#pragma once

#include <string>
#include <string_view>

namespace seedrl {

// The current name of the setting `name`, written as in a config file
// ("learner-cores" -> "learner-cpus"; '_' is read as '-'); any other name
// unchanged.
std::string current_setting_name(std::string_view name);

}  // namespace seedrl
