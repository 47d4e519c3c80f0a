// One V-trace learner update (forward over the unrolls, V-trace targets, the
// three losses, backward, gradient clipping, Adam) on synthetic [T+1, B]
// batches, one LibTorch thread: the learner stage's cost per update without
// the queue. CartPole with the MLP 64x64 torso (overhead-bound: ~100 small
// ops) and MinAtar Breakout with the conv torso (compute-bound).
#include <benchmark/benchmark.h>
#include <torch/torch.h>

#include "seedrl/env/registry.h"
#include "seedrl/learner/vtrace_learner.h"
#include "seedrl/model/policy_distribution.h"
#include "seedrl/util/torch_runtime.h"

namespace {

using namespace seedrl;

void vtrace_update_bench(benchmark::State& state, const char* env) {
  const int T = static_cast<int>(state.range(0)), B = static_cast<int>(state.range(1));
  configure_torch_runtime(1, false);
  const EnvSpec spec = EnvRegistry::builtin().make(env, {})->spec();
  auto dist = make_policy_distribution(spec.action);
  torch::manual_seed(0);
  AgentNet model(spec, ModelConfig{}, dist->param_size());
  LearnerConfig config;
  config.batch_size = B;
  auto optimizer = make_optimizer(config.optimizer, model->parameters());

  const std::int64_t L = T + 1;
  std::vector<std::int64_t> obs_shape{L, B};
  obs_shape.insert(obs_shape.end(), spec.observation.shape.begin(), spec.observation.shape.end());
  UnrollBatch batch;
  batch.obs = spec.observation.dtype == DType::kUInt8 ? torch::randint(0, 2, obs_shape).to(torch::kUInt8)
                                                      : torch::randn(obs_shape);
  batch.actions = torch::randint(0, spec.action.num_actions, {L, B, 1}).to(torch::kFloat32);
  batch.policy = torch::randn({L, B, dist->param_size()});
  batch.rewards = torch::randint(0, 2, {L, B}).to(torch::kFloat32);
  batch.flags = torch::zeros({L, B}, torch::kUInt8);
  VTraceLosses losses;
  for (auto _ : state) {
    vtrace_update(model, *dist, *optimizer, batch, config, torch::kCPU, config.optimizer.learning_rate, losses);
  }
  state.SetItemsProcessed(state.iterations() * T * B);  // frames trained on
}

void BM_VTraceUpdate_CartPole(benchmark::State& state) { vtrace_update_bench(state, "cartpole"); }
void BM_VTraceUpdate_MinAtarBreakout(benchmark::State& state) { vtrace_update_bench(state, "minatar:breakout"); }

}  // namespace

BENCHMARK(BM_VTraceUpdate_CartPole)->ArgNames({"T", "B"})->Args({20, 32})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_VTraceUpdate_MinAtarBreakout)
    ->ArgNames({"T", "B"})
    ->Args({20, 32})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
