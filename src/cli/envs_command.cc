#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "seedrl/cli/commands.h"
#include "seedrl/env/registry.h"

namespace seedrl {

CommandRunner add_envs_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("envs", "List every environment with its observation and action spec");
  auto options = std::make_shared<EnvOptions>();
  cmd->add_option("--rom-dir", options->rom_dir, "Atari ROM directory (default: $SEEDRL_ATARI_ROMS, else the build's)");
  return [cmd, options]() -> int {
    if (!cmd->parsed()) return -1;
    const auto& registry = EnvRegistry::builtin();
    fmt::print("{:<28} {:<20} {:<22} {}\n", "name", "observation", "action", "description");
    auto row = [&](const std::string& name) {
      std::string obs = "?", act = "?";
      try {
        const EnvSpec spec = registry.spec(name, *options);
        obs = spec.observation.to_string();
        act = spec.action.to_string();
      } catch (const std::exception& e) {
        obs = "unavailable";
        act = e.what();
      }
      fmt::print("{:<28} {:<20} {:<22} {}\n", name, obs, act, registry.description(name));
    };
    for (const auto& name : registry.names()) row(name);
    // A family's members, or one line saying why there are none.
    for (const auto& family : registry.families()) {
      const auto members = family.list(*options);
      for (const auto& m : members) row(family.prefix + m);
      if (members.empty()) fmt::print("{:<28} {}\n", family.prefix + family.member, family.unavailable);
    }
    return 0;
  };
}

}  // namespace seedrl
