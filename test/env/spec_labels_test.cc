// Every built-in env names its discrete actions and its observation's last
// axis, or leaves both empty: play --render and videos print these names.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "seedrl/env/registry.h"

using namespace seedrl;

TEST_CASE("env labels: one name per discrete action and per entry of the observation's last axis", "[env][registry]") {
  const auto& registry = EnvRegistry::builtin();
  int checked = 0;
  for (const std::string& name : registry.names()) {
    CAPTURE(name);
    EnvPtr env;
    try {
      env = registry.make(name);
    } catch (const std::exception& e) {
      WARN(name << " not made here: " << e.what());  // an Atari game without its ROM
      continue;
    }
    const EnvSpec& spec = env->spec();
    const bool unlabelled = name.rfind("synthetic:", 0) == 0 || name.rfind("mujoco:", 0) == 0;
    if (spec.action.is_discrete() && !unlabelled)
      CHECK(spec.action_names.size() == static_cast<std::size_t>(spec.action.num_actions));
    if (!unlabelled) CHECK(spec.observation_names.size() == static_cast<std::size_t>(spec.observation.shape.back()));
    for (const auto* names : {&spec.action_names, &spec.observation_names}) {
      CHECK(std::set<std::string>(names->begin(), names->end()).size() == names->size());
      for (const std::string& n : *names) CHECK(!n.empty());
    }
    ++checked;
  }
  CHECK(checked >= 10);  // classic control and MinAtar at least
}

TEST_CASE("MinAtar's channels carry the reference's names in its order", "[env][minatar]") {
  // minatar/environments/*.py: the channels dict of each game.
  const auto& registry = EnvRegistry::builtin();
  CHECK(registry.make("minatar:breakout")->spec().observation_names ==
        std::vector<std::string>{"paddle", "ball", "trail", "brick"});
  CHECK(registry.make("minatar:asterix")->spec().observation_names ==
        std::vector<std::string>{"player", "enemy", "trail", "gold"});
  CHECK(registry.make("minatar:freeway")->spec().observation_names ==
        std::vector<std::string>{"chicken", "car", "speed1", "speed2", "speed3", "speed4", "speed5"});
  CHECK(registry.make("minatar:space_invaders")->spec().observation_names ==
        std::vector<std::string>{"cannon", "alien", "alien_left", "alien_right", "friendly_bullet", "enemy_bullet"});
  CHECK(registry.make("minatar:seaquest")->spec().observation_names.size() == 10);
  CHECK(registry.make("minatar:seaquest")->spec().action_names ==
        std::vector<std::string>{"noop", "left", "up", "right", "down", "fire"});
}
