#include "seedrl/cli/env_defaults.h"

#include <optional>
#include <string_view>

#include "seedrl/cli/config_file.h"

namespace seedrl {
namespace {

struct VTraceEnvDefaults {
  const char* env;  // a name, or a family's prefix ending in ':'
  std::optional<double> reward_scale;
  std::optional<double> entropy_cost;
  int envs_per_actor;
};

// CartPole pays +1 per step for up to 500 steps, so at discount 0.99 values
// reach ~100 and the value loss's gradient swamps the policy's in the shared
// torso. Scaling rewards by 0.1 (entropy cost scaled with them, keeping its
// weight against the advantages) fixes that: at 2M frames, 8 seeds each ended
// at 496-500 against 463-500 with the global defaults (bench/RESULTS.md).
// A CartPole step costs ~30 ns and an actor thread's round trip to inference
// (sleep, wake-up, a core again) ~5 us, so one env per thread spends the CPU
// on context switches: 8 envs per thread made training 2.8x faster end to end
// on 2 cores (learner-bound instead of switch-bound) and learned as well per
// frame (1M frames, 8 seeds: 496-500).
// A MinAtar step costs 55-230 ns, also far below the round trip. With one env
// per thread (and inference batches of 16) Breakout's `seedrl bench` pipeline
// split between a fast and a slow schedule: end to end 44-62k frames/s,
// efficiency 0.68-0.99 over 14 runs on 2 cores. With 4 the inference stage
// doubles (64k -> 128k frames/s) and the pipeline runs at the learner's rate
// (efficiency 0.92-0.93); bare-default training ends where it did (2M frames:
// 5.02 against 5.06). The tuned configs/minatar-*.toml set their own.
const VTraceEnvDefaults kVTraceEnvDefaults[] = {
    {"cartpole", 0.1, 0.001, 8},
    {"minatar:", std::nullopt, std::nullopt, 4},
};

bool matches(std::string_view pattern, const std::string& env) {
  if (!pattern.empty() && pattern.back() == ':') return env.rfind(pattern, 0) == 0;
  return env == pattern;
}

}  // namespace

void apply_env_defaults(const CLI::App& cmd, TrainConfig& c) {
  if (c.algo != "vtrace") return;
  for (const auto& d : kVTraceEnvDefaults) {
    if (!matches(d.env, c.env)) continue;
    if (d.reward_scale && !flag_given(cmd, "--reward-scale")) c.learner.loss.reward_scale = *d.reward_scale;
    if (d.entropy_cost && !flag_given(cmd, "--entropy-cost")) c.learner.loss.entropy_cost = *d.entropy_cost;
    if (!flag_given(cmd, "--envs-per-actor")) c.envs_per_actor = d.envs_per_actor;
  }
}

}  // namespace seedrl
