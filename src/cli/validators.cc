#include "seedrl/cli/validators.h"

#include "seedrl/env/registry.h"

namespace seedrl {

CLI::Validator env_name_validator() {
  return CLI::Validator(
      [](std::string& name) -> std::string {
        const auto& registry = EnvRegistry::builtin();
        if (registry.contains(name)) return {};
        std::string valid;
        for (const auto& n : registry.names()) valid += (valid.empty() ? "" : ", ") + n;
        return "unknown environment '" + name + "' (valid: " + valid + ")";
      },
      "ENV");
}

}  // namespace seedrl
