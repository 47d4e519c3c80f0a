// The kernel's floor under the actor threads: N threads at actor priority
// (SCHED_BATCH, nice 19) that do nothing but hand their CPU to the next one
// (sched_yield). Every actor round trip costs at least one such switch, so
// cpu_us_per_switch is the least CPU a frame can cost with one env per actor
// thread, and how it grows with N is what more threads cost on this machine
// (see bench/RESULTS.md, "Micro-benchmarks"). The
// Time column is the 50 ms the measuring thread sleeps per iteration.
#include <sched.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <benchmark/benchmark.h>

#include "seedrl/bench/bench_report.h"
#include "seedrl/util/actor_thread_priority.h"

namespace {

struct alignas(64) SwitchCount {
  std::atomic<std::uint64_t> value{0};
};

void BM_ThreadSwitch(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::vector<SwitchCount> counts(static_cast<std::size_t>(n));
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    threads.emplace_back([&, i] {
      seedrl::lower_actor_thread_priority(19);
      auto& c = counts[static_cast<std::size_t>(i)].value;
      while (!stop.load(std::memory_order_relaxed)) {
        sched_yield();
        c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
      }
    });
  }
  auto total = [&] {
    std::uint64_t s = 0;
    for (const auto& c : counts) s += c.value.load(std::memory_order_relaxed);
    return s;
  };
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // every thread started and cycling
  const std::uint64_t s0 = total();
  const auto t0 = std::chrono::steady_clock::now();
  for (auto _ : state) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto switches = static_cast<double>(total() - s0);
  stop.store(true);
  for (auto& t : threads) t.join();
  state.counters["switches_per_s"] = switches / seconds;
  state.counters["cpu_us_per_switch"] = switches > 0 ? seedrl::bench::usable_cpus() * seconds * 1e6 / switches : 0;
}

}  // namespace

BENCHMARK(BM_ThreadSwitch)->ArgName("threads")->Arg(16)->Arg(256)->Arg(1024)->Arg(4096)->UseRealTime()->MinTime(1.0);
