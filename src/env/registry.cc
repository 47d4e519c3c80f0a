#include "seedrl/env/registry.h"

#include <cctype>
#include <optional>
#include <stdexcept>
#include <utility>

#include "seedrl/util/closest_name.h"

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
    register_atari(r);
    register_football(r);
    return r;
  }();
  return registry;
}

void EnvRegistry::add(std::string name, std::string description, Factory factory) {
  entries_[std::move(name)] = Entry{std::move(description), std::move(factory)};
}

void EnvRegistry::add_family(Family family) { families_.push_back(std::move(family)); }

const EnvRegistry::Family* EnvRegistry::family_of(const std::string& name) const {
  for (const Family& f : families_)
    if (name.size() > f.prefix.size() && name.compare(0, f.prefix.size(), f.prefix) == 0) return &f;
  return nullptr;
}

bool EnvRegistry::contains(const std::string& name) const {
  return entries_.count(name) != 0 || family_of(name) != nullptr;
}

namespace {

// Without a trailing Gymnasium version ("-v1").
std::string without_version(const std::string& name) {
  const auto v = name.rfind("-v");
  if (v == std::string::npos || v + 2 == name.size()) return name;
  for (std::size_t i = v + 2; i < name.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return name;
  return name.substr(0, v);
}

// Lower case, '/' as ':', without '_', '-' and ' ': the form names compare in.
std::string key_of(const std::string& name) {
  std::string k;
  for (char c : name) {
    if (c == '_' || c == '-' || c == ' ') continue;
    k += c == '/' ? ':' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return k;
}

// "SpaceInvaders" -> "space_invaders"; a name without capitals only lower-cased.
std::string snake_case(const std::string& name) {
  std::string s;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (std::isupper(c) && i > 0 && name[i - 1] != '_') s += '_';
    s += static_cast<char>(std::tolower(c));
  }
  return s;
}

}  // namespace

std::string EnvRegistry::canonical(const std::string& name) const {
  if (contains(name)) return name;
  const std::string bare = without_version(name);
  const std::string key = key_of(bare);
  for (const auto& [n, _] : entries_) {
    if (key_of(n) == key) return n;
    // Gymnasium names MuJoCo tasks without a prefix.
    if (n.rfind("mujoco:", 0) == 0 && key_of(n.substr(7)) == key) return n;
  }
  // A family member by prefix: ALE's "ALE/" is atari:.
  const auto sep = bare.find_first_of(":/");
  if (sep != std::string::npos && sep + 1 < bare.size()) {
    std::string prefix = key_of(bare.substr(0, sep)) + ":";
    if (prefix == "ale:") prefix = "atari:";
    if (prefix == "gfootball:") prefix = "football:";
    for (const Family& f : families_)
      if (f.prefix == prefix) return f.prefix + snake_case(bare.substr(sep + 1));
  }
  return "";
}

std::string EnvRegistry::closest(const std::string& name) const {
  std::vector<std::string> all = names();
  return closest_name(name, all, 3);
}

int EnvRegistry::frame_stack(const std::string& name, const EnvOptions& options) const {
  if (options.frame_stack > 0) return options.frame_stack;
  const Family* f = entries_.count(name) == 0 ? family_of(name) : nullptr;
  if (f == nullptr) return 1;
  return f->frame_stack_for ? f->frame_stack_for(options) : f->frame_stack;
}

EnvPtr EnvRegistry::make(const std::string& name, const EnvOptions& options) const {
  EnvPtr env;
  if (auto it = entries_.find(name); it != entries_.end()) {
    env = it->second.factory(options);
  } else if (const Family* f = family_of(name)) {
    env = f->make(name.substr(f->prefix.size()), options);
  } else {
    std::string valid;
    for (const auto& [n, _] : entries_) valid += (valid.empty() ? "" : ", ") + n;
    for (const Family& fam : families_) valid += ", " + fam.prefix + fam.member;
    throw std::invalid_argument("unknown environment '" + name + "' (valid: " + valid + ")");
  }
  return wrap(name, options, std::move(env));
}

EnvPtr EnvRegistry::wrap(const std::string& name, const EnvOptions& options, EnvPtr env) const {
  const int stack = frame_stack(name, options);
  if (options.action_repeat > 1) env = std::make_unique<ActionRepeat>(std::move(env), options.action_repeat);
  if (stack > 1) env = std::make_unique<FrameStack>(std::move(env), stack);
  if (options.time_limit > 0) env = std::make_unique<TimeLimit>(std::move(env), options.time_limit);
  return env;
}

namespace {

// Stands in for an env whose spec is known without starting it, so that the
// wrappers report the spec they would give the real one.
class SpecOnlyEnv final : public Env {
 public:
  explicit SpecOnlyEnv(EnvSpec spec) : spec_(std::move(spec)) {}
  const EnvSpec& spec() const override { return spec_; }
  void reset(std::optional<std::uint64_t>, void*) override { throw std::logic_error("SpecOnlyEnv: not an env"); }
  StepResult step(const Action&, void*) override { throw std::logic_error("SpecOnlyEnv: not an env"); }

 private:
  EnvSpec spec_;
};

}  // namespace

EnvSpec EnvRegistry::spec(const std::string& name, const EnvOptions& options) const {
  const Family* f = entries_.count(name) ? nullptr : family_of(name);
  if (f == nullptr || !f->spec) return make(name, options)->spec();
  return wrap(name, options, std::make_unique<SpecOnlyEnv>(f->spec(name.substr(f->prefix.size()), options)))->spec();
}

std::vector<std::string> EnvRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [n, _] : entries_) out.push_back(n);
  return out;
}

const std::string& EnvRegistry::description(const std::string& name) const {
  if (auto it = entries_.find(name); it != entries_.end()) return it->second.description;
  if (const Family* f = family_of(name)) return f->description;
  return entries_.at(name).description;  // throws std::out_of_range
}

}  // namespace seedrl
