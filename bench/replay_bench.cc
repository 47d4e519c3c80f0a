// R2D2's prioritised sequence replay at the paper's shapes: one sample of 64
// sequences of burn-in 40 + unroll 80 + 1 entries (gathered into the
// learner's time-major batch, with importance weights), one priority update
// for such a sample, and one sequence insert. MinAtar-shaped observations
// (10x10x4 uint8) and an LSTM of 512, so a full replay stays small enough
// for a bench run.
#include <cstdint>
#include <vector>

#include <benchmark/benchmark.h>
#include <torch/torch.h>

#include "seedrl/learner/r2d2/replay.h"
#include "seedrl/util/rng.h"

namespace {

using seedrl::r2d2::Replay;
using seedrl::r2d2::ReplayConfig;
using seedrl::r2d2::ReplaySample;

constexpr int kLength = 40 + 80 + 1;
constexpr int kBatch = 64;
constexpr int kCore = 512;
constexpr int kActions = 6;

seedrl::UnrollLayout minatar_layout() {
  seedrl::UnrollLayout l;
  l.observation = seedrl::ArraySpec{{10, 10, 4}, seedrl::DType::kUInt8};
  l.action_width = 1;
  l.policy_size = kActions;
  l.core_size = kCore;
  l.length = kLength;
  l.overlap = 40;
  return l;
}

// A time-major batch of `n` random sequences, as the trajectory store hands them over.
seedrl::UnrollBatch random_sequences(const seedrl::UnrollLayout& l, int n) {
  seedrl::UnrollBatch b;
  b.obs = torch::randint(0, 2, {l.length, n, 10, 10, 4}, torch::kUInt8);
  b.actions = torch::randint(0, kActions, {l.length, n, 1}).to(torch::kFloat32);
  b.policy = torch::randn({l.length, n, kActions});
  b.rewards = torch::randn({l.length, n});
  b.flags = torch::zeros({l.length, n}, torch::kUInt8);
  b.core_h = torch::randn({n, kCore});
  b.core_c = torch::randn({n, kCore});
  b.versions = torch::zeros({n}, torch::kInt64);
  b.slots = torch::arange(n, torch::kInt64);
  return b;
}

ReplayConfig bench_config(std::int64_t capacity) {
  ReplayConfig c;
  c.capacity = capacity;
  c.min_fill = 1;
  c.check_memory = false;
  return c;
}

// A replay of `capacity` MinAtar-shaped sequences with random priorities.
struct FilledReplay {
  seedrl::UnrollLayout layout = minatar_layout();
  seedrl::Rng rng;
  Replay replay;
  FilledReplay(std::int64_t capacity, std::uint64_t seed) : rng(seed), replay(layout, bench_config(capacity)) {
    const auto batch = random_sequences(layout, 64);
    for (std::int64_t i = 0; i < capacity; ++i) replay.insert(batch, static_cast<int>(i % 64), rng.uniform(0.01, 2.0));
  }
};

void BM_ReplaySample(benchmark::State& state) {
  torch::set_num_threads(1);
  FilledReplay f(state.range(0), 3);
  ReplaySample s;
  for (auto _ : state) {
    f.replay.sample(kBatch, s);
    benchmark::DoNotOptimize(s.batch.obs.data_ptr());
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
  state.counters["frames_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * kBatch * kLength, benchmark::Counter::kIsRate);
}

void BM_ReplayUpdatePriorities(benchmark::State& state) {
  FilledReplay f(state.range(0), 4);
  ReplaySample s;
  f.replay.sample(kBatch, s);
  std::vector<double> priorities(kBatch);
  for (auto _ : state) {
    for (auto& p : priorities) p = f.rng.uniform(0.01, 2.0);
    f.replay.update_priorities(s, priorities);
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}

void BM_ReplayInsert(benchmark::State& state) {
  const std::int64_t capacity = state.range(0);
  const auto l = minatar_layout();
  Replay replay(l, bench_config(capacity));
  const auto batch = random_sequences(l, 64);
  int i = 0;
  for (auto _ : state) {
    replay.insert(batch, i, -1);
    i = (i + 1) % 64;
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK(BM_ReplaySample)->ArgName("capacity")->Arg(1 << 10)->Arg(1 << 13)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ReplayUpdatePriorities)->ArgName("capacity")->Arg(1 << 10)->Arg(1 << 13);
BENCHMARK(BM_ReplayInsert)->ArgName("capacity")->Arg(1 << 13)->Unit(benchmark::kMicrosecond);
