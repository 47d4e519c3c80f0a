// One R2D2 learner update (sample, burn-in, online and target forward,
// backward, Adam, priority write-back) on MinAtar-shaped sequences with the
// MinAtar conv torso and an LSTM core: the learner's share of R2D2's cost.
#include <memory>

#include <benchmark/benchmark.h>
#include <torch/torch.h>

#include "seedrl/env/env_step.h"
#include "seedrl/env/registry.h"
#include "seedrl/learner/r2d2/r2d2_learner.h"
#include "seedrl/util/torch_runtime.h"

namespace {

using namespace seedrl;

void BM_R2D2LearnerStep(benchmark::State& state) {
  const int trained = static_cast<int>(state.range(0)), batch = static_cast<int>(state.range(1));
  const int burn_in = static_cast<int>(state.range(2));
  configure_torch_runtime(1, false);
  const EnvSpec spec = EnvRegistry::builtin().make("minatar:breakout", {})->spec();
  ModelConfig model;
  model.torso = "minatar";
  model.lstm = true;
  model.lstm_size = 128;
  UnrollLayout layout;
  layout.observation = spec.observation;
  layout.action_width = 1;
  layout.policy_size = 1 + spec.action.num_actions;
  layout.core_size = model.lstm_size;
  layout.length = burn_in + trained + 1;
  r2d2::ReplayConfig rc;
  rc.capacity = 256;
  rc.check_memory = false;
  r2d2::Replay replay(layout, rc);
  torch::manual_seed(0);
  const auto L = layout.length;
  for (int i = 0; i < rc.capacity; ++i) {
    UnrollBatch b;
    b.obs = torch::randint(0, 2, {L, 1, 10, 10, spec.observation.shape.back()}).to(torch::kUInt8);
    b.actions = torch::randint(0, spec.action.num_actions, {L, 1, 1}).to(torch::kFloat32);
    b.policy = torch::randn({L, 1, layout.policy_size});
    b.rewards = torch::randint(0, 2, {L, 1}).to(torch::kFloat32);
    b.flags = torch::zeros({L, 1}, torch::kUInt8);
    b.core_h = torch::zeros({1, model.lstm_size});
    b.core_c = torch::zeros({1, model.lstm_size});
    b.versions = torch::zeros({1}, torch::kInt64);
    replay.insert(b, 0);
  }
  ParamPublisher publisher;
  LearnerConfig config;
  config.batch_size = batch;
  R2D2Config r2d2;
  r2d2.burn_in = burn_in;
  r2d2::R2D2Learner learner([&] { return QNet(spec, model); }, r2d2, config, replay, publisher,
                            {torch::Device(torch::kCPU)});
  r2d2::R2D2Stats stats;
  for (auto _ : state) learner.step(stats);
  state.SetItemsProcessed(state.iterations() * batch * trained);  // trained transitions
}

}  // namespace

BENCHMARK(BM_R2D2LearnerStep)
    ->ArgNames({"T", "B", "burn"})
    ->Args({30, 32, 10})
    ->Args({20, 32, 10})
    ->Args({20, 16, 5})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
