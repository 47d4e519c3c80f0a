#include "seedrl/env/play.h"

#include "seedrl/env/play_frames.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "seedrl/env/episode_outcome.h"
#include "seedrl/env/random_action.h"
#include "seedrl/util/rng.h"

namespace seedrl {

namespace {

// MinAtar's observations: channels of 0s and 1s; Football's maps: of 0s and
// 255s. Atari's are shades.
bool is_channel_image(const ArraySpec& spec, const void* obs) {
  if (spec.shape.size() != 3 || spec.dtype != DType::kUInt8) return false;
  const auto* px = static_cast<const std::uint8_t*>(obs);
  const auto* end = px + spec.numel();
  return std::none_of(px, end, [](std::uint8_t v) { return v > 1; }) ||
         std::all_of(px, end, [](std::uint8_t v) { return v == 0 || v == 255; });
}

constexpr char kShades[] = " .:-=+*#%@";  // dark to bright

char channel_letter(std::int64_t c) { return static_cast<char>(c < 26 ? 'a' + c : '#'); }

}  // namespace

void render_observation(const EnvSpec& env, const void* obs, std::ostream& out) {
  const ArraySpec& spec = env.observation;
  const auto& s = spec.shape;
  if (s.size() == 3 && spec.dtype == DType::kUInt8) {
    const auto* px = static_cast<const std::uint8_t*>(obs);
    if (!is_channel_image(spec, obs)) {
      // Grayscale (Atari): the last channel, the newest frame of a stack,
      // one character per pixel from dark to bright.
      for (std::int64_t y = 0; y < s[0]; ++y) {
        for (std::int64_t x = 0; x < s[1]; ++x) out << kShades[px[(y * s[1] + x) * s[2] + s[2] - 1] * 10 / 256];
        out << '\n';
      }
      return;
    }
    for (std::int64_t y = 0; y < s[0]; ++y) {
      for (std::int64_t x = 0; x < s[1]; ++x) {
        char cell = '.';
        for (std::int64_t c = 0; c < s[2]; ++c)
          if (px[(y * s[1] + x) * s[2] + c]) cell = channel_letter(c);
        out << cell;
      }
      out << '\n';
    }
    return;
  }
  const auto n = static_cast<std::int64_t>(spec.numel());
  const bool named = env.observation_names.size() == static_cast<std::size_t>(n);
  for (std::int64_t i = 0; i < n; ++i) {
    if (i) out << ' ';
    if (named) out << env.observation_names[static_cast<std::size_t>(i)] << '=';
    if (spec.dtype == DType::kUInt8)
      out << static_cast<int>(static_cast<const std::uint8_t*>(obs)[i]);
    else
      out << static_cast<const float*>(obs)[i];
  }
  out << '\n';
}

void render_legend(const EnvSpec& env, const void* obs, std::ostream& out) {
  const ArraySpec& spec = env.observation;
  if (spec.shape.size() != 3 || spec.dtype != DType::kUInt8) return;
  const std::int64_t channels = spec.shape[2];
  const auto& names = env.observation_names;
  const bool named = names.size() == static_cast<std::size_t>(channels);
  if (is_channel_image(spec, obs)) {
    out << "legend: '.' empty";
    for (std::int64_t c = 0; c < channels; ++c) {
      out << ", " << channel_letter(c) << ' ';
      if (named)
        out << names[static_cast<std::size_t>(c)];
      else
        out << "channel " << c;
    }
    out << " (where several are set, the last listed)\n";
    return;
  }
  out << "legend: " << (named ? names.back() : "channel " + std::to_string(channels - 1)) << " in shades '" << kShades
      << "' from dark (0) to bright (255)\n";
}

std::string action_label(const EnvSpec& env, const float* action) {
  if (env.action.is_discrete()) {
    const auto a = std::lround(action[0]);
    std::string label = std::to_string(a);
    if (a >= 0 && static_cast<std::size_t>(a) < env.action_names.size())
      label += " (" + env.action_names[static_cast<std::size_t>(a)] + ")";
    return label;
  }
  std::ostringstream out;
  for (int i = 0; i < env.action.width(); ++i) out << (i ? " " : "") << action[i];
  return out.str();
}

PlayStats play_episodes(Env& env, const PlayPolicy& policy, int episodes, std::uint64_t seed, std::ostream* trace) {
  return play_episodes(env, policy, episodes, seed, trace, FrameSink{});
}

PlayStats play_episodes(Env& env, const PlayPolicy& policy, int episodes, std::uint64_t seed, std::ostream* trace,
                        const FrameSink& frames) {
  const EnvSpec& spec = env.spec();
  std::vector<std::uint8_t> obs(spec.observation.bytes());
  std::vector<float> action(spec.action.width());
  double sum = 0, sum_sq = 0, length = 0;
  std::vector<std::pair<std::string, int>> outcomes;
  for (int e = 0; e < episodes; ++e) {
    env.reset(e == 0 ? std::optional<std::uint64_t>(seed) : std::nullopt, obs.data());
    if (frames) frames(env);
    double ret = 0;
    bool first = true;
    float reward = 0.f;
    bool first_step = true;
    std::int64_t step = 0;  // within this episode
    for (;;) {
      policy(obs.data(), first, reward, action.data());
      first = false;
      if (trace) {
        if (e == 0 && first_step) render_legend(spec, obs.data(), *trace);
        *trace << "episode " << e << " step " << step << "\n";
        render_observation(spec, obs.data(), *trace);
      }
      first_step = false;
      const StepResult r =
          env.step(Action{static_cast<std::int32_t>(std::lround(action[0])), action.data()}, obs.data());
      if (trace) {
        *trace << "action " << action_label(spec, action.data()) << " reward " << r.reward
               << (r.terminated  ? " terminated"
                   : r.truncated ? " truncated"
                                 : "")
               << "\n";
      }
      if (frames) frames(env);
      reward = r.reward;
      ret += r.reward;
      length += 1;
      ++step;
      if (r.terminated && r.life_lost && !r.truncated) {
        // A lost life (--terminal-on-life-loss): the game goes on after the
        // reset, a new episode for the policy, the same for the score.
        env.reset(std::nullopt, obs.data());
        if (frames) frames(env);
        first = true;
        reward = 0.f;
        continue;
      }
      if (r.terminated || r.truncated) break;
    }
    if (const char* how = episode_outcome(env)) {
      auto it = std::find_if(outcomes.begin(), outcomes.end(), [how](const auto& o) { return o.first == how; });
      if (it == outcomes.end())
        outcomes.emplace_back(how, 1);
      else
        ++it->second;
    }
    sum += ret;
    sum_sq += ret * ret;
  }
  PlayStats s;
  s.env = env.spec().name;
  s.episodes = episodes;
  s.return_mean = sum / episodes;
  s.return_std = std::sqrt(std::max(0.0, sum_sq / episodes - s.return_mean * s.return_mean));
  s.length_mean = length / episodes;
  std::stable_sort(outcomes.begin(), outcomes.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  s.outcomes = std::move(outcomes);
  return s;
}

PlayPolicy make_simple_policy(const std::string& spec, const ActionSpec& a, std::uint64_t seed) {
  if (spec == "random") {
    auto rng = std::make_shared<Rng>(derive_seed(seed, 0x706c6179));
    return [rng, a](const void*, bool, float, float* action) { sample_random_action(a, *rng, action); };
  }
  if (spec.rfind("const:", 0) == 0) {
    float value;
    try {
      std::size_t used = 0;
      value = std::stof(spec.substr(6), &used);
      if (used != spec.size() - 6) throw std::invalid_argument("trailing characters");
    } catch (const std::exception&) {
      throw std::invalid_argument("--policy: cannot parse '" + spec + "' (use const:K)");
    }
    if (a.is_discrete() && (value < 0 || value >= a.num_actions || value != std::floor(value)))
      throw std::invalid_argument("--policy: action " + spec.substr(6) + " is outside discrete(" +
                                  std::to_string(a.num_actions) + ")");
    return [value, a](const void*, bool, float, float* action) {
      for (int i = 0; i < a.width(); ++i) action[i] = value;
    };
  }
  throw std::invalid_argument("--policy: unknown policy '" + spec + "' (use random, const:K or checkpoint:PATH)");
}

}  // namespace seedrl
