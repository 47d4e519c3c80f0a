// One SAC learner step (uniform sample of 256 transitions, the temperature,
// twin-critic and actor updates, Polyak averaging, publishing the actor) on
// MuJoCo-shaped transitions, and the update alone on ready transitions: the
// learner's share of SAC's cost, which bounds a run (one update per env step).
// Arguments: the hidden width, --torch-threads, --critic-threads.
#include <ATen/CPUGeneratorImpl.h>
#include <benchmark/benchmark.h>
#include <torch/torch.h>

#include "seedrl/env/registry.h"
#include "seedrl/learner/sac/actor_gradients.h"
#include "seedrl/learner/sac/sac_learner.h"
#include "seedrl/learner/sac/transitions.h"
#include "seedrl/util/torch_runtime.h"

namespace {

using namespace seedrl;

struct SacFixture {
  EnvSpec spec;
  ModelConfig model;
  UnrollLayout layout;
  r2d2::ReplayConfig rc;
  std::unique_ptr<r2d2::Replay> replay;

  explicit SacFixture(const std::string& env, int hidden) {
    spec = EnvRegistry::builtin().make(env, {})->spec();
    model.torso = "mlp";
    model.hidden = {hidden, hidden};
    layout.observation = spec.observation;
    layout.action_width = spec.action.dim;
    layout.policy_size = 1;
    layout.length = 2;
    layout.overlap = 1;
    rc.capacity = 4096;
    rc.priority_exponent = 0;
    rc.importance_exponent = 0;
    rc.check_memory = false;
    replay = std::make_unique<r2d2::Replay>(layout, rc);
    torch::manual_seed(0);
    for (int i = 0; i < rc.capacity; ++i) {
      UnrollBatch b;
      b.obs = torch::randn({2, 1, spec.observation.shape.front()});
      b.actions = torch::rand({2, 1, spec.action.dim}) * 2 - 1;
      b.policy = torch::zeros({2, 1, 1});
      b.rewards = torch::randn({2, 1});
      b.flags = torch::zeros({2, 1}, torch::kUInt8);
      b.versions = torch::zeros({1}, torch::kInt64);
      replay->insert(b, 0);
    }
  }
};

void BM_SacLearnerStep(benchmark::State& state) {
  configure_torch_runtime(static_cast<int>(state.range(1)), false);
  SacFixture f("mujoco:halfcheetah", static_cast<int>(state.range(0)));
  ParamPublisher publisher;
  LearnerConfig config;
  config.batch_size = 256;
  SacConfig sc;
  sc.critic_threads = static_cast<int>(state.range(2));
  sac::SacLearner learner(f.spec, f.model, sc, config, 1, *f.replay, publisher, torch::Device(torch::kCPU), 1);
  sac::SacLearnerStats stats;
  for (auto _ : state) learner.step(stats);
  state.SetItemsProcessed(state.iterations());  // updates
  configure_torch_runtime(1, false);
}

// The learner step's parts besides the update: the replay's uniform sample
// of 256 transitions, and turning them into a TransitionBatch.
void BM_SacSampleAndTransitions(benchmark::State& state) {
  SacFixture f("mujoco:halfcheetah", 256);
  r2d2::ReplaySample sample;
  const bool transitions = state.range(0) != 0;
  for (auto _ : state) {
    f.replay->sample(256, sample);
    if (transitions)
      benchmark::DoNotOptimize(sac::make_transitions(sample.batch, 1, 0.99, f.spec.action.low, f.spec.action.high, 1));
  }
}

void BM_SacUpdate(benchmark::State& state) {
  configure_torch_runtime(static_cast<int>(state.range(1)), false);
  const EnvSpec spec = EnvRegistry::builtin().make("mujoco:halfcheetah", {})->spec();
  ModelConfig model;
  model.hidden = {static_cast<int>(state.range(0)), static_cast<int>(state.range(0))};
  sac::SacSettings settings;
  settings.critic_threads = static_cast<int>(state.range(2));
  settings.bf16_matmuls = state.range(3) != 0;
  sac::SacUpdater updater(SacNet(spec, model, 1.0), settings);
  const std::int64_t n = 256, obs = spec.observation.shape.front(), dim = spec.action.dim;
  sac::TransitionBatch b{torch::randn({n, obs}), torch::rand({n, dim}) * 2 - 1, torch::randn({n}),
                         torch::zeros({n}),      torch::randn({n, obs}),        torch::full({n}, 0.99)};
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(1);
  for (auto _ : state) updater.update(b, generator);
  state.SetItemsProcessed(state.iterations());
  configure_torch_runtime(1, false);
}

// The actor's squashed Gaussian sample of a batch (action and
// log-probability) and its gradient: an update takes two samples and one
// gradient, each of 256 rows of HalfCheetah's 6 action dimensions.
void BM_SquashedSample(benchmark::State& state) {
  const std::int64_t n = 256, dim = 6;
  torch::manual_seed(0);
  const torch::Tensor out = torch::cat({torch::randn({n, dim}), torch::rand({n, dim}) * 4 - 3}, 1);
  const torch::Tensor noise = torch::randn({n, dim}), action_grad = torch::randn({n, dim});
  for (auto _ : state) {
    if (state.range(0) == 0)
      benchmark::DoNotOptimize(sac::squashed_sample_of(out, noise));
    else
      benchmark::DoNotOptimize(sac::squashed_sample_grad(out, noise, action_grad, 0.1));
  }
}

}  // namespace

BENCHMARK(BM_SquashedSample)->ArgNames({"grad"})->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SacLearnerStep)
    ->ArgNames({"hidden", "threads", "critics"})
    ->Args({256, 1, 1})
    ->Args({256, 2, 1})
    ->Args({256, 1, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_SacUpdate)
    ->ArgNames({"hidden", "threads", "critics", "bf16"})
    ->Args({64, 1, 1, 0})
    ->Args({128, 1, 1, 0})
    ->Args({256, 1, 1, 0})
    ->Args({256, 2, 1, 0})
    ->Args({256, 1, 2, 0})
    ->Args({256, 1, 2, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_SacSampleAndTransitions)->ArgNames({"transitions"})->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
