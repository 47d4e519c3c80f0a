// One matrix product on one thread, float32 (LibTorch's BLAS: OpenBLAS in
// Debian's build) against bfloat16 operands (oneDNN), at the shapes of SAC's
// hidden layers (256 rows, 256 wide): whether this CPU's bfloat16 pays, which
// is what --precision auto decides from the CPU's features
// (util/bf16_faster.h). Arguments: rows = inner = outer size, bf16.
// BM_CpuMatmul: the same float32 product as the learner's MLP pass takes it
// (learner/cpu_matmul.h: oneDNN where the build has it), with a layer's bias
// and ReLU folded in, against BM_Matmul's float32 row.
#include <benchmark/benchmark.h>
#include <torch/torch.h>

#include "seedrl/learner/cpu_matmul.h"
#include "seedrl/util/torch_runtime.h"

namespace {

using namespace seedrl;

void BM_Matmul(benchmark::State& state) {
  configure_torch_runtime(1, false);
  const std::int64_t n = state.range(0);
  const auto dtype = state.range(1) != 0 ? torch::kBFloat16 : torch::kFloat32;
  const torch::Tensor a = torch::randn({n, n}).to(dtype), b = torch::randn({n, n}).to(dtype);
  torch::Tensor out = torch::empty({n, n}, torch::TensorOptions().dtype(dtype));
  for (auto _ : state) {
    at::mm_out(out, a, b.t());
    benchmark::DoNotOptimize(out.data_ptr());
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(2.0 * static_cast<double>(n * n * n), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_CpuMatmul(benchmark::State& state) {
  configure_torch_runtime(1, false);
  const std::int64_t n = state.range(0);
  const torch::Tensor x = torch::randn({n, n}), w = torch::randn({n, n}), bias = torch::randn({n});
  torch::Tensor out = torch::empty({n, n});
  CpuMatmul mm;
  for (auto _ : state) {
    mm.run(out, x, w.t(), &bias, CpuMatmul::Activation::kRelu);
    benchmark::DoNotOptimize(out.data_ptr());
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(2.0 * static_cast<double>(n * n * n), benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(CpuMatmul::uses_onednn() ? "oneDNN" : "LibTorch");
}

}  // namespace

BENCHMARK(BM_Matmul)->ArgNames({"n", "bf16"})->Args({256, 0})->Args({256, 1})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CpuMatmul)->ArgNames({"n"})->Arg(256)->Unit(benchmark::kMicrosecond);
