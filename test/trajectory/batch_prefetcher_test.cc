#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>
#include <vector>

#include <torch/torch.h>

#include "seedrl/env/env_step.h"
#include "seedrl/trajectory/batch_prefetcher.h"

using namespace seedrl;

namespace {

// Observation and reward of step i of a slot: both encode (slot, i).
UnrollLayout one_float_layout(int length) {
  UnrollLayout l;
  l.observation = ArraySpec{{1}, DType::kFloat32};
  l.length = length;
  l.overlap = 1;
  return l;
}

StepRecord step_of(int slot, int i, float& obs, float& action, float& policy) {
  obs = static_cast<float>(slot * 100000 + i);
  action = 0.f;
  policy = 0.f;
  return StepRecord{
      &obs, &action, &policy, nullptr, nullptr, static_cast<float>(i), static_cast<std::uint8_t>(i == 0 ? kFirst : 0)};
}

}  // namespace

TEST_CASE("the prefetcher hands out every unroll once and intact while many threads append", "[trajectory]") {
  const int L = 5, slots = 16, batch = 4, steps_per_slot = 4 * 40 + 1;  // 40 unrolls per slot
  TrajectoryStore store(one_float_layout(L), slots, 8, batch);
  BatchPrefetcher prefetcher(store, batch, /*depth=*/2);
  // One appending thread per slot, as inference threads own disjoint slots.
  std::vector<std::thread> feeders;
  for (int s = 0; s < slots; ++s) {
    feeders.emplace_back([&store, s] {
      float obs, action, policy;
      for (int i = 0; i < steps_per_slot; ++i)
        if (!store.append(s, step_of(s, i, obs, action, policy), i)) return;
    });
  }
  const int expected = slots * 40;
  std::vector<std::vector<int>> starts(slots);  // first step of each unroll seen, per slot
  UnrollBatch b;
  for (int got = 0; got < expected; got += batch) {
    REQUIRE(prefetcher.next(b));
    REQUIRE(b.obs.size(1) == batch);
    for (int j = 0; j < batch; ++j) {
      const int slot = static_cast<int>(b.slots[j].item<std::int64_t>());
      const int start = static_cast<int>(b.rewards[0][j].item<float>());
      for (int t = 0; t < L; ++t) {
        // Every entry belongs to this unroll of this slot: nothing torn or reused.
        REQUIRE(b.obs[t][j][0].item<float>() == static_cast<float>(slot * 100000 + start + t));
        REQUIRE(b.rewards[t][j].item<float>() == static_cast<float>(start + t));
      }
      CHECK(b.versions[j].item<std::int64_t>() == start);
      starts[slot].push_back(start);
    }
  }
  for (auto& f : feeders) f.join();
  // Each slot's unrolls arrive once each and in the order they were finished.
  for (int s = 0; s < slots; ++s) {
    INFO("slot " << s);
    REQUIRE(starts[s].size() == 40u);
    for (int k = 0; k < 40; ++k) CHECK(starts[s][k] == 4 * k);
  }
  store.close();
  CHECK_FALSE(prefetcher.next(b));
}

TEST_CASE("a prefetcher waiting on a store stops without closing it or losing unrolls", "[trajectory]") {
  const int L = 3, batch = 2;
  TrajectoryStore store(one_float_layout(L), 1, 4, batch);
  float obs, action, policy;
  // One unroll queued: the prefetcher waits for a second one.
  for (int i = 0; i < L; ++i) REQUIRE(store.append(0, step_of(0, i, obs, action, policy), 0));
  {
    BatchPrefetcher prefetcher(store, batch);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
  }  // the destructor must return although no second unroll ever comes
  // The store is still open and still holds the first unroll: with the next
  // one it makes a batch, in order.
  CHECK(store.queued() == 1);
  for (int i = L; i < 2 * L - 1; ++i) REQUIRE(store.append(0, step_of(0, i, obs, action, policy), 0));
  UnrollBatch b;
  REQUIRE(store.next_batch(batch, b));
  CHECK(b.rewards[0][0].item<float>() == 0.f);
  CHECK(b.rewards[0][1].item<float>() == L - 1.f);
}

TEST_CASE("closing the store wakes a learner waiting on the prefetcher", "[trajectory]") {
  TrajectoryStore store(one_float_layout(3), 1, 4, 2);
  BatchPrefetcher prefetcher(store, 2);
  std::atomic<bool> returned{false}, result{true};
  std::thread learner([&] {
    UnrollBatch b;
    result.store(prefetcher.next(b));
    returned.store(true);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  CHECK_FALSE(returned.load());
  store.close();
  learner.join();
  CHECK(returned.load());
  CHECK_FALSE(result.load());
}

TEST_CASE("a prefetcher whose gathering throws hands the error to the learner, not std::terminate", "[trajectory]") {
  TrajectoryStore store(one_float_layout(3), 1, 4, 2);
  // A batch size no vector can hold makes next_batch throw on the thread, as a
  // failed page-locked allocation would.
  BatchPrefetcher prefetcher(store, -1);
  UnrollBatch b;
  CHECK_THROWS(prefetcher.next(b));
}
