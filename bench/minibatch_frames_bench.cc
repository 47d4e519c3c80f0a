// A Pong-fast minibatch's frames on their way to the first convolution
// (impala-shallow in bfloat16 over 4x4 pixel blocks): 4 of a batch's 32
// unrolls of 33 stacked 84x84x4 frames gathered and then converted (arg 0),
// or gathered and converted in one pass (arg 1, AgentNet::prepare_obs with
// the unrolls: what the learner does).
#include <benchmark/benchmark.h>
#include <torch/torch.h>

#include "seedrl/model/agent_net.h"

namespace {

using namespace seedrl;

void BM_MinibatchFrames(benchmark::State& state) {
  at::set_num_threads(1);
  EnvSpec spec;
  spec.name = "atari";
  spec.observation = ArraySpec{{84, 84, 4}, DType::kUInt8};
  spec.action = ActionSpec::discrete(6);
  ModelConfig config;
  config.torso = "impala-shallow";
  config.precision = "bf16";
  AgentNet net(spec, config, 6);
  const auto obs = torch::randint(0, 256, {33, 32, 84, 84, 4}, torch::kUInt8);
  const auto unrolls = torch::tensor({17, 3, 29, 8}, torch::kInt64);
  const bool fused = state.range(0) != 0;
  for (auto _ : state) {
    const auto blocks = fused ? net->prepare_obs(obs, unrolls) : net->prepare_obs(obs.index_select(1, unrolls));
    benchmark::DoNotOptimize(blocks.data_ptr());
  }
  state.SetItemsProcessed(state.iterations() * 33 * 4);  // frames
}

}  // namespace

BENCHMARK(BM_MinibatchFrames)->ArgName("fused")->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
