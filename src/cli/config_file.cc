#include "seedrl/cli/config_file.h"

#include <algorithm>
#include <stdexcept>

#include <CLI/CLI.hpp>

namespace seedrl {

void apply_config_file(CLI::App& command, const std::string& path) {
  std::vector<CLI::ConfigItem> items;
  try {
    items = CLI::ConfigTOML().from_file(path);
  } catch (const CLI::Error& e) {
    throw std::invalid_argument("--config: cannot read " + path + ": " + e.what());
  }
  for (const auto& item : items) {
    if (item.name == "++" || item.name == "--") continue;  // section markers
    std::string key = item.fullname();
    std::replace(key.begin(), key.end(), '_', '-');
    if (key == "config") throw std::invalid_argument("--config: " + path + " may not name another config file");
    CLI::Option* opt = command.get_option_no_throw("--" + key);
    if (!opt) throw std::invalid_argument("--config: unknown key '" + item.fullname() + "' in " + path);
    if (opt->count() > 0) continue;  // the command line wins
    try {
      opt->add_result(item.inputs);
      opt->run_callback();
    } catch (const CLI::Error& e) {
      throw std::invalid_argument(std::string(e.what()) + " (in " + path + ")");
    }
  }
}

bool flag_given(const CLI::App& command, const std::string& flag) {
  const CLI::Option* o = command.get_option_no_throw(flag);
  return o != nullptr && o->count() > 0;
}

}  // namespace seedrl
