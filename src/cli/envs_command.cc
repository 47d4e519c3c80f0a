#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "seedrl/cli/commands.h"
#include "seedrl/env/registry.h"

namespace seedrl {

CommandRunner add_envs_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("envs", "List every environment with its observation and action spec");
  return [cmd]() -> int {
    if (!cmd->parsed()) return -1;
    const auto& registry = EnvRegistry::builtin();
    fmt::print("{:<28} {:<20} {:<22} {}\n", "name", "observation", "action", "description");
    for (const auto& name : registry.names()) {
      std::string obs = "?", act = "?";
      try {
        const EnvSpec spec = registry.make(name)->spec();
        obs = spec.observation.to_string();
        act = spec.action.to_string();
      } catch (const std::exception& e) {
        obs = "unavailable";
        act = e.what();
      }
      fmt::print("{:<28} {:<20} {:<22} {}\n", name, obs, act, registry.description(name));
    }
    return 0;
  };
}

}  // namespace seedrl
