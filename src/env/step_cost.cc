#include "seedrl/env/step_cost.h"

#include <chrono>
#include <vector>

#include "seedrl/env/random_action.h"

namespace seedrl {

double measure_step_ns(Env& env, std::uint64_t seed, int max_steps, double max_seconds) {
  using Clock = std::chrono::steady_clock;
  const EnvSpec& spec = env.spec();
  std::vector<std::uint8_t> obs(spec.observation.bytes());
  std::vector<float> values(static_cast<std::size_t>(spec.action.width()));
  Rng rng(seed);
  env.reset(seed, obs.data());
  const auto t0 = Clock::now();
  const auto deadline = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(max_seconds));
  int steps = 0;
  do {
    const StepResult r = env.step(sample_random_action(spec.action, rng, values.data()), obs.data());
    if (r.terminated || r.truncated) env.reset(std::nullopt, obs.data());
    ++steps;
  } while (steps < max_steps && Clock::now() < deadline);
  return std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / steps;
}

}  // namespace seedrl
