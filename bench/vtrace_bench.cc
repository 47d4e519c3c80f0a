// V-trace targets for a [T, B] batch, as the learner computes them per update:
// BM_VTrace is the CPU loop vtrace() runs on CPU tensors, BM_VTraceTensorOps
// the whole-tensor recursion it runs on accelerators (here on CPU, to compare).
#include <benchmark/benchmark.h>
#include <torch/torch.h>

#include "seedrl/learner/vtrace/vtrace.h"

namespace {

template <auto Impl>
void run_vtrace(benchmark::State& state) {
  const std::int64_t T = state.range(0), B = state.range(1);
  torch::manual_seed(0);
  const auto log_rhos = 0.1 * torch::randn({T, B});
  const auto discounts = torch::full({T, B}, 0.99f);
  const auto rewards = torch::randn({T, B});
  const auto values = torch::randn({T, B});
  const auto bootstrap = torch::randn({B});
  const auto valid = torch::ones({T, B});
  seedrl::VTraceOptions options;
  for (auto _ : state) {
    auto r = Impl(log_rhos, discounts, rewards, values, bootstrap, valid, options);
    benchmark::DoNotOptimize(r.vs.data_ptr());
  }
  state.SetItemsProcessed(state.iterations() * T * B);  // transitions
}

void BM_VTrace(benchmark::State& state) { run_vtrace<&seedrl::vtrace>(state); }
void BM_VTraceTensorOps(benchmark::State& state) { run_vtrace<&seedrl::vtrace_tensor_ops>(state); }

}  // namespace

BENCHMARK(BM_VTrace)->ArgNames({"T", "B"})->Args({20, 32})->Args({20, 256})->Args({80, 32});
BENCHMARK(BM_VTraceTensorOps)->ArgNames({"T", "B"})->Args({20, 32})->Args({20, 256})->Args({80, 32});
