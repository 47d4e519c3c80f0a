#include "seedrl/env/step_cost.h"

#include <chrono>
#include <vector>

#include "seedrl/env/random_action.h"
#include "seedrl/util/clock.h"

namespace seedrl {

double measure_step_ns(Env& env, std::uint64_t seed, int max_steps, double max_seconds) {
  using Clock = std::chrono::steady_clock;
  const EnvSpec& spec = env.spec();
  std::vector<std::uint8_t> obs(spec.observation.bytes());
  std::vector<float> values(static_cast<std::size_t>(spec.action.width()));
  Rng rng(seed);
  env.reset(seed, obs.data());
  const double cpu0 = thread_cpu_ns();
  const auto t0 = Clock::now();
  const auto seconds = [](double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  };
  const auto deadline = t0 + seconds(max_seconds);
  // Past the deadline, a thread that waited for a CPU may have stepped too
  // little to average out one-time costs: it goes on until it has spent the
  // budget in CPU time (checked every 64 steps: the clock is a system call),
  // or until a much later deadline if the env itself waits.
  const auto last_deadline = t0 + seconds(50 * max_seconds);
  const double budget_ns = 1e9 * max_seconds;
  auto budget_spent = [&](int steps) {
    const auto now = Clock::now();
    if (now < deadline) return false;
    return now >= last_deadline || (steps % 64 == 0 && thread_cpu_ns() - cpu0 >= budget_ns);
  };
  int steps = 0;
  do {
    const StepResult r = env.step(sample_random_action(spec.action, rng, values.data()), obs.data());
    if (r.terminated || r.truncated) env.reset(std::nullopt, obs.data());
    ++steps;
  } while (steps < max_steps && !budget_spent(steps));
  const double cpu = thread_cpu_ns() - cpu0;
  // A clock too coarse to see the steps: wall time instead.
  if (cpu <= 0) return std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / steps;
  return cpu / steps;
}

}  // namespace seedrl
