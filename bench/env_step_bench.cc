// One environment step (reset on episode end), uniform random actions, for
// every registered environment.
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

// Every environment the registry knows (MuJoCo's only where it was built in),
// so a new environment is benchmarked without touching this file.
[[maybe_unused]] const bool registered = [] {
  for (const std::string& name : seedrl::EnvRegistry::builtin().names())
    benchmark::RegisterBenchmark(("BM_EnvStep/" + name).c_str(), BM_EnvStep, name);
  return true;
}();
