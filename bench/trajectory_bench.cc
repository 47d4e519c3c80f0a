// TrajectoryStore::append: one step's in-place copy into its slot's unroll,
// round-robin over 256 slots, with a learner-side thread draining batches.
// TrajectoryStore::next_batch: the learner's gather of one batch at the GPU
// runs' shapes, the work BatchPrefetcher takes off the learner's thread.
#include <thread>
#include <vector>

#include <benchmark/benchmark.h>

#include "alloc_counter.h"
#include "seedrl/trajectory/trajectory_store.h"

namespace {

// Args: observation bytes as {kind}: 0 = CartPole float32[4], 1 = MinAtar
// uint8[10,10,4]; core width (0 = no LSTM).
void BM_TrajectoryAppend(benchmark::State& state) {
  seedrl::UnrollLayout layout;
  layout.observation = state.range(0) == 0 ? seedrl::ArraySpec{{4}, seedrl::DType::kFloat32}
                                           : seedrl::ArraySpec{{10, 10, 4}, seedrl::DType::kUInt8};
  layout.action_width = 1;
  layout.policy_size = 6;
  layout.core_size = static_cast<int>(state.range(1));
  layout.length = 21;
  layout.overlap = 1;
  constexpr int kSlots = 256, kBatch = 32;
  seedrl::TrajectoryStore store(layout, kSlots, 2 * kBatch, kBatch);
  std::thread learner([&] {
    seedrl::UnrollBatch batch;
    while (store.next_batch(kBatch, batch)) {
    }
  });
  std::vector<std::uint8_t> obs(layout.observation.bytes(), 1);
  std::vector<float> action(1, 0.f), policy(layout.policy_size, 0.f), core(std::max(1, layout.core_size), 0.f);
  seedrl::StepRecord rec{obs.data(), action.data(), policy.data(), core.data(), core.data(), 1.f, 0};
  int slot = 0;
  const std::uint64_t allocs0 = seedrl::bench::allocations_this_thread();
  std::uint64_t appended = 0;
  for (auto _ : state) {
    if (!store.append(slot, rec, 0)) state.SkipWithError("store closed");
    if (++slot == kSlots) slot = 0;
    ++appended;
  }
  // The appending thread's own allocations (the learner's gathers allocate per batch).
  state.counters["allocs_per_step"] =
      static_cast<double>(seedrl::bench::allocations_this_thread() - allocs0) / static_cast<double>(appended);
  state.SetItemsProcessed(state.iterations());
  store.close();
  learner.join();
}

// Args: {kind}: 0 = MinAtar uint8[10,10,4], 1 = Atari uint8[84,84,4]; batch
// of unrolls of 21 entries.
void BM_TrajectoryGather(benchmark::State& state) {
  seedrl::UnrollLayout layout;
  layout.observation = state.range(0) == 0 ? seedrl::ArraySpec{{10, 10, 4}, seedrl::DType::kUInt8}
                                           : seedrl::ArraySpec{{84, 84, 4}, seedrl::DType::kUInt8};
  layout.action_width = 1;
  layout.policy_size = 18;
  layout.length = 21;
  layout.overlap = 1;
  const int batch = static_cast<int>(state.range(1));
  seedrl::TrajectoryStore store(layout, batch, batch, batch);
  std::vector<std::uint8_t> obs(layout.observation.bytes(), 1);
  std::vector<float> action(1, 0.f), policy(layout.policy_size, 0.f);
  seedrl::StepRecord rec{obs.data(), action.data(), policy.data(), nullptr, nullptr, 1.f, 0};
  // The first unroll of each slot takes 21 steps, later ones 20 (one overlaps).
  for (int slot = 0; slot < batch; ++slot) store.append(slot, rec, 0);
  seedrl::UnrollBatch out;
  for (auto _ : state) {
    state.PauseTiming();
    for (int t = 0; t < layout.length - layout.overlap; ++t)
      for (int slot = 0; slot < batch; ++slot) store.append(slot, rec, 0);
    state.ResumeTiming();
    if (!store.next_batch(batch, out)) state.SkipWithError("store closed");
    benchmark::DoNotOptimize(out.obs.data_ptr());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(batch) * layout.length *
                          static_cast<std::int64_t>(layout.observation.bytes()));
}

}  // namespace

BENCHMARK(BM_TrajectoryGather)
    ->ArgNames({"atari_obs", "B"})
    ->Args({0, 512})
    ->Args({1, 64})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_TrajectoryAppend)->ArgNames({"minatar_obs", "core"})->ArgsProduct({{0, 1}, {0, 64}})->UseRealTime();
