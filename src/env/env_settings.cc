#include "seedrl/env/env_settings.h"

#include <algorithm>
#include <sstream>
#include <utility>
#include <vector>

namespace seedrl {

namespace {

using Settings = std::vector<std::pair<std::string, std::string>>;

std::string family(const std::string& env) {
  const auto colon = env.find(':');
  return colon == std::string::npos ? "" : env.substr(0, colon);
}

std::string on_off(bool v) { return v ? "on" : "off"; }

// The shortest round-trip form ("0.1", "0.25", "0"), as a user writes it.
std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// Tokens in pairs, "--flag value"; a value never holds a space (env names,
// numbers and the Football reward lists do not). Malformed text from a peer
// parses to whatever pairs it holds, and then differs.
Settings parse(const std::string& text) {
  std::istringstream in(text);
  Settings out;
  std::string flag, value;
  while (in >> flag) {
    if (!(in >> value)) value.clear();
    out.emplace_back(flag, value);
  }
  return out;
}

}  // namespace

std::string env_settings(const std::string& env, const EnvOptions& o) {
  Settings s{{"--env", env}};
  const std::string f = family(env);
  if (f == "atari") {
    s.emplace_back("--sticky-action-prob", number(o.sticky_action_prob < 0 ? 0.0 : o.sticky_action_prob));
    s.emplace_back("--frame-skip", std::to_string(o.frame_skip));
    s.emplace_back("--screen-size", std::to_string(o.screen_size));
    s.emplace_back("--noop-max", std::to_string(o.noop_max));
    s.emplace_back("--max-episode-frames", std::to_string(o.max_episode_frames));
    s.emplace_back("--terminal-on-life-loss", on_off(o.terminal_on_life_loss));
    s.emplace_back("--minimal-action-set", on_off(o.minimal_action_set));
  } else if (f == "minatar") {
    s.emplace_back("--sticky-action-prob", number(o.sticky_action_prob < 0 ? 0.1 : o.sticky_action_prob));
    s.emplace_back("--difficulty-ramping", on_off(o.difficulty_ramping));
  } else if (f == "football") {
    s.emplace_back("--football-obs", o.football_obs);
    s.emplace_back("--football-rewards", o.football_rewards);
    s.emplace_back("--football-shot-hold", std::to_string(o.football_shot_hold));
    s.emplace_back("--football-shot-hold-prob", number(o.football_shot_hold_prob));
  }
  s.emplace_back("--action-repeat", std::to_string(o.action_repeat));
  s.emplace_back("--frame-stack", std::to_string(EnvRegistry::builtin().frame_stack(env, o)));
  s.emplace_back("--time-limit", std::to_string(o.time_limit));
  std::string out;
  for (const auto& [flag, value] : s) out += (out.empty() ? "" : " ") + flag + " " + value;
  return out;
}

std::string env_settings_mismatch(const std::string& peer, const std::string& ours, const std::string& whose) {
  const Settings theirs = parse(peer), mine = parse(ours);
  for (const auto& [flag, value] : mine) {
    const Settings::const_iterator it =
        std::find_if(theirs.begin(), theirs.end(), [&](const auto& p) { return p.first == flag; });
    if (it == theirs.end()) return "its env settings lack " + flag + " (" + whose + " is " + value + ")";
    if (it->second != value) return flag + " " + it->second + " differs from " + whose + " " + value;
  }
  for (const auto& [flag, value] : theirs)
    if (std::find_if(mine.begin(), mine.end(), [&](const auto& p) { return p.first == flag; }) == mine.end())
      return flag + " " + value + " is not among " + whose + " env settings";
  return "";
}

}  // namespace seedrl
