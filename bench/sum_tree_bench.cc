// R2D2's sum tree: one priority update, and one proportional sample.
#include <vector>

#include <benchmark/benchmark.h>

#include "seedrl/learner/r2d2/sum_tree.h"
#include "seedrl/util/rng.h"

namespace {

seedrl::r2d2::SumTree filled_tree(std::size_t n, seedrl::Rng& rng) {
  seedrl::r2d2::SumTree tree(n);
  for (std::size_t i = 0; i < n; ++i) tree.set(i, rng.uniform(0.01, 1.0));
  return tree;
}

void BM_SumTreeUpdate(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  seedrl::Rng rng(1);
  auto tree = filled_tree(n, rng);
  for (auto _ : state) tree.set(rng.below(n), rng.uniform(0.01, 1.0));
  benchmark::DoNotOptimize(tree.total());
  state.SetItemsProcessed(state.iterations());
}

void BM_SumTreeSample(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  seedrl::Rng rng(2);
  auto tree = filled_tree(n, rng);
  const double total = tree.total();
  for (auto _ : state) benchmark::DoNotOptimize(tree.find_prefix_sum(rng.uniform() * total));
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK(BM_SumTreeUpdate)->Arg(1 << 10)->Arg(1 << 20);
BENCHMARK(BM_SumTreeSample)->Arg(1 << 10)->Arg(1 << 20);
