// football:<scenario> for every gfootball scenario. Without the engine the
// family still registers, so `seedrl envs` and a run that asks for
// football:... say how to get it.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "seedrl/env/football/engine_game.h"
#include "seedrl/env/football/football_env.h"
#include "seedrl/env/football/scenario.h"
#include "seedrl/env/registry.h"

namespace seedrl {

void register_football(EnvRegistry& registry) {
  EnvRegistry::Family f;
  f.prefix = "football:";
  f.member = "<scenario>";
  f.description =
      "Google Research Football: 72x96 Super Mini Map x4 (or --football-obs simple115v2), 19 actions, "
      "scoring,checkpoints reward (docs/football.md)";
  f.frame_stack_for = football::football_frame_stack;
  if (football::engine_available()) {
    f.list = [](const EnvOptions&) {
      std::vector<std::string> names;
      for (const football::Scenario& s : football::scenarios()) names.push_back(s.name);
      return names;
    };
    f.unavailable = "no scenarios";
    f.make = [](const std::string& scenario, const EnvOptions& options) -> EnvPtr {
      return std::make_unique<football::FootballEnv>(football::football_config(scenario, options));
    };
    f.spec = [](const std::string& scenario, const EnvOptions& options) {
      return football::football_spec(football::football_config(scenario, options));
    };
  } else {
    f.list = [](const EnvOptions&) { return std::vector<std::string>{}; };
    f.unavailable =
        "seedrl was built without Google Research Football's engine: run third_party/install-football.sh SRC and "
        "reconfigure, see docs/football.md";
    f.make = [u = f.unavailable](const std::string& scenario, const EnvOptions&) -> EnvPtr {
      throw std::invalid_argument("football:" + scenario + ": " + u);
    };
  }
  registry.add_family(std::move(f));
}

}  // namespace seedrl
