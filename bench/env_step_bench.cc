// One environment step (reset on episode end), uniform random actions.
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "alloc_counter.h"
#include "seedrl/env/registry.h"
#include "seedrl/util/rng.h"

namespace {

void BM_EnvStep(benchmark::State& state, const std::string& name) {
  seedrl::EnvPtr env = seedrl::EnvRegistry::builtin().make(name);
  const seedrl::EnvSpec& spec = env->spec();
  std::vector<std::uint8_t> obs(spec.observation.bytes());
  std::vector<float> action(spec.action.width(), 0.f);
  seedrl::Rng rng(7);
  env->reset(1, obs.data());
  std::int64_t episodes = 0;
  const std::uint64_t allocs0 = seedrl::bench::allocations_this_thread();
  for (auto _ : state) {
    seedrl::Action a{0, action.data()};
    if (spec.action.is_discrete()) {
      a.index = static_cast<std::int32_t>(rng.below(spec.action.num_actions));
    } else {
      for (int d = 0; d < spec.action.dim; ++d)
        action[d] = static_cast<float>(rng.uniform(spec.action.low[d], spec.action.high[d]));
    }
    const seedrl::StepResult r = env->step(a, obs.data());
    if (r.terminated || r.truncated) {
      env->reset(std::nullopt, obs.data());
      ++episodes;
    }
    benchmark::DoNotOptimize(obs.data());
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["allocs_per_step"] =
      static_cast<double>(seedrl::bench::allocations_this_thread() - allocs0) / static_cast<double>(state.iterations());
  state.counters["episodes"] = static_cast<double>(episodes);
}

}  // namespace

BENCHMARK_CAPTURE(BM_EnvStep, cartpole, std::string("cartpole"));
BENCHMARK_CAPTURE(BM_EnvStep, acrobot, std::string("acrobot"));
BENCHMARK_CAPTURE(BM_EnvStep, mountaincar, std::string("mountaincar"));
BENCHMARK_CAPTURE(BM_EnvStep, pendulum, std::string("pendulum"));
BENCHMARK_CAPTURE(BM_EnvStep, minatar_breakout, std::string("minatar:breakout"));
BENCHMARK_CAPTURE(BM_EnvStep, minatar_freeway, std::string("minatar:freeway"));
BENCHMARK_CAPTURE(BM_EnvStep, minatar_asterix, std::string("minatar:asterix"));
BENCHMARK_CAPTURE(BM_EnvStep, minatar_seaquest, std::string("minatar:seaquest"));
BENCHMARK_CAPTURE(BM_EnvStep, minatar_space_invaders, std::string("minatar:space_invaders"));
BENCHMARK_CAPTURE(BM_EnvStep, mujoco_halfcheetah, std::string("mujoco:halfcheetah"));
