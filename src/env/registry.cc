#include "seedrl/env/registry.h"

#include <stdexcept>

#include "seedrl/env/synthetic/atari_shaped.h"
#include "seedrl/env/wrappers/action_repeat.h"
#include "seedrl/env/wrappers/frame_stack.h"
#include "seedrl/env/wrappers/time_limit.h"

namespace seedrl {

const EnvRegistry& EnvRegistry::builtin() {
  // Built once, immutable afterwards; a function-local static is thread-safe.
  static const EnvRegistry registry = [] {
    EnvRegistry r;
    register_classic_control(r);
    register_minatar(r);
    register_mujoco(r);
    register_synthetic(r);
    return r;
  }();
  return registry;
}

void EnvRegistry::add(std::string name, std::string description, Factory factory) {
  entries_[std::move(name)] = Entry{std::move(description), std::move(factory)};
}

bool EnvRegistry::contains(const std::string& name) const { return entries_.count(name) != 0; }

EnvPtr EnvRegistry::make(const std::string& name, const EnvOptions& options) const {
  auto it = entries_.find(name);
  if (it == entries_.end()) {
    std::string valid;
    for (const auto& [n, _] : entries_) valid += (valid.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown environment '" + name + "' (valid: " + valid + ")");
  }
  EnvPtr env = it->second.factory(options);
  if (options.action_repeat > 1) env = std::make_unique<ActionRepeat>(std::move(env), options.action_repeat);
  if (options.frame_stack > 1) env = std::make_unique<FrameStack>(std::move(env), options.frame_stack);
  if (options.time_limit > 0) env = std::make_unique<TimeLimit>(std::move(env), options.time_limit);
  return env;
}

std::vector<std::string> EnvRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [n, _] : entries_) out.push_back(n);
  return out;
}

const std::string& EnvRegistry::description(const std::string& name) const {
  return entries_.at(name).description;
}

}  // namespace seedrl
