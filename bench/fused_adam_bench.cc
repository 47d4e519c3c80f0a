// The CPU learner's Adam step (DeviceOptimizerStep's fused loop) over
// impala-shallow's 678k parameters, a share of whose gradients are tiny
// (1e-20: their squares, and so their exp_avg_sq, are subnormal floats, as a
// dead unit's weights' moments become), on a thread that keeps subnormals and
// on one that flushes them to zero (util/denormals.h: what the learner's
// thread does).
#include <benchmark/benchmark.h>
#include <torch/torch.h>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "seedrl/learner/device_optimizer_step.h"
#include "seedrl/learner/vtrace_learner.h"
#include "seedrl/util/denormals.h"

namespace {

using namespace seedrl;

void BM_FusedAdamStep(benchmark::State& state) {
#if defined(__x86_64__) || defined(__i386__)
  const unsigned csr = _mm_getcsr();
  if (state.range(1))
    flush_denormals_on_this_thread();
  else
    _mm_setcsr(csr & ~0x8040u);  // FTZ and DAZ off: IEEE subnormals
#else
  state.SkipWithError("switching subnormals off and on needs x86's MXCSR here");
  return;
#endif
  const std::int64_t n = 677943;
  auto param = torch::full({n}, 0.01f).requires_grad_(true);
  auto tiny = torch::arange(n).remainder(100).lt(state.range(0));
  auto sign = torch::arange(n).remainder(2).mul(2).sub(1).to(torch::kFloat32);
  param.mutable_grad() = sign * torch::where(tiny, torch::full({n}, 1e-20f), torch::full({n}, 1e-3f));
  OptimizerConfig config;
  config.max_grad_norm = 0;  // the gradients stay as they are from step to step
  auto optimizer = make_optimizer(config, {param});
  DeviceOptimizerStep step(*optimizer, config, {param});
  for (auto _ : state) {
    step.prepare(2.5e-4);
    step.step();
  }
  state.SetItemsProcessed(state.iterations() * n);
#if defined(__x86_64__) || defined(__i386__)
  _mm_setcsr(csr);
#endif
}

}  // namespace

BENCHMARK(BM_FusedAdamStep)
    ->ArgNames({"subnormal_pct", "flush"})
    ->Args({0, 0})
    ->Args({5, 0})
    ->Args({5, 1})
    ->Args({50, 0})
    ->Args({50, 1})
    ->Unit(benchmark::kMicrosecond);
