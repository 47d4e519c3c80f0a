// Builds environments by name ("cartpole", "minatar:breakout", ...). Each env
// family adds its names in its own register_* function, so a new environment
// drops in without touching the pipeline.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "seedrl/env/env.h"

namespace seedrl {

// Per-env options a user may set from the command line; families read what
// they understand and ignore the rest.
struct EnvOptions {
  double sticky_action_prob = 0.1;  // MinAtar
  bool difficulty_ramping = true;   // MinAtar
  // Wrappers, applied by make() to every env in this order:
  int action_repeat = 1;  // repeat each action, summing rewards
  int frame_stack = 1;    // stack the last k observations on the last axis
  int time_limit = 0;     // > 0: truncate episodes after this many (agent) steps
};

class EnvRegistry {
 public:
  using Factory = std::function<EnvPtr(const EnvOptions&)>;

  // The registry with every built-in environment.
  static const EnvRegistry& builtin();

  void add(std::string name, std::string description, Factory factory);
  bool contains(const std::string& name) const;
  // Throws std::invalid_argument naming the valid names for an unknown name.
  EnvPtr make(const std::string& name, const EnvOptions& options = {}) const;
  std::vector<std::string> names() const;
  const std::string& description(const std::string& name) const;

 private:
  struct Entry {
    std::string description;
    Factory factory;
  };
  std::map<std::string, Entry> entries_;
};

// One per family; each lives beside its environments.
void register_classic_control(EnvRegistry& registry);
void register_minatar(EnvRegistry& registry);
void register_mujoco(EnvRegistry& registry);

}  // namespace seedrl
