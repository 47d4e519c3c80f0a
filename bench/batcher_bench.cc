// RequestBatcher round trip: the measured thread submits one step and waits
// for its action while (actors - 1) other threads do the same, and a stand-in
// inference thread answers every batch at once (no model). Time per iteration
// is one round trip; rows_per_s is the batcher's total throughput.
#include <atomic>
#include <thread>
#include <vector>

#include <benchmark/benchmark.h>

#include "alloc_counter.h"
#include "seedrl/inference/request_batcher.h"

namespace {

using seedrl::Completion;
using seedrl::EnvStep;

void BM_BatcherRoundTrip(benchmark::State& state) {
  const int batch = static_cast<int>(state.range(0));
  const int actors = static_cast<int>(state.range(1));
  seedrl::ArraySpec obs_spec{{4}, seedrl::DType::kFloat32};  // CartPole-sized rows
  const int buffers = (actors + batch - 1) / batch + 2;
  seedrl::RequestBatcher batcher(obs_spec, batch, std::chrono::microseconds(50), buffers, false);
  std::thread server([&] {
    while (seedrl::InferenceBatch* b = batcher.next_batch()) {
      for (int i = 0; i < b->size; ++i) b->steps[i]->action[0] = 1.f;
      batcher.complete(b);
    }
  });
  std::atomic<bool> stop{false};
  std::vector<std::thread> others;
  for (int a = 1; a < actors; ++a) {
    others.emplace_back([&, a] {
      float obs[4] = {0, 0, 0, 0}, action = 0;
      EnvStep step{a, 0, 0.f, obs, &action};
      Completion completion;
      while (!stop.load(std::memory_order_relaxed))
        if (!batcher.submit({&step, 1}, completion)) break;
    });
  }
  float obs[4] = {0, 0, 0, 0}, action = 0;
  EnvStep step{0, 0, 0.f, obs, &action};
  Completion completion;
  const std::uint64_t rows0 = batcher.rows();
  const std::uint64_t allocs0 = seedrl::bench::allocations_this_thread();
  for (auto _ : state) {
    if (!batcher.submit({&step, 1}, completion)) state.SkipWithError("batcher closed");
  }
  const double allocs = static_cast<double>(seedrl::bench::allocations_this_thread() - allocs0);
  state.counters["rows_per_s"] =
      benchmark::Counter(static_cast<double>(batcher.rows() - rows0), benchmark::Counter::kIsRate);
  state.counters["allocs_per_submit"] = allocs / static_cast<double>(state.iterations());
  stop.store(true);
  batcher.close();
  for (auto& t : others) t.join();
  server.join();
}

}  // namespace

BENCHMARK(BM_BatcherRoundTrip)
    ->ArgNames({"batch", "actors"})
    ->ArgsProduct({{1, 16, 128}, {1, 16, 256}})
    ->UseRealTime()
    ->MinTime(0.3);
