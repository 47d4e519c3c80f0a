#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include <torch/cuda.h>
#include <torch/torch.h>

#include "../util/wait_until.h"
#include "seedrl/env/env_step.h"
#include "seedrl/trajectory/trajectory_store.h"

using namespace seedrl;

namespace {

UnrollLayout small_layout(int length, int overlap, int core) {
  UnrollLayout l;
  l.observation = ArraySpec{{1}, DType::kFloat32};
  l.action_width = 1;
  l.policy_size = 2;
  l.core_size = core;
  l.length = length;
  l.overlap = overlap;
  return l;
}

// Step i of a slot: every field is a known function of (slot, i).
struct FakeStep {
  float obs, action, policy[2], h[2], c[2];
  StepRecord record(int slot, int i, std::uint8_t flags) {
    obs = slot * 1000.f + i;
    action = 10.f + i;
    policy[0] = static_cast<float>(i);
    policy[1] = -static_cast<float>(i);
    h[0] = 100.f + i + slot * 1000.f;
    h[1] = 200.f + i;
    c[0] = 300.f + i;
    c[1] = 400.f + i;
    return StepRecord{&obs, &action, policy, h, c, 0.5f * i, flags};
  }
};

}  // namespace

TEST_CASE("unrolls overlap by one entry and carry the core state of their first entry", "[trajectory]") {
  const int L = 4;  // T = 3
  TrajectoryStore store(small_layout(L, 1, 2), 2, 16, 4);
  FakeStep f;
  // Slot 0 ends an episode at step 4 (terminated) and resets at 5; slot 1 runs plain.
  for (int i = 0; i < 10; ++i) {
    std::uint8_t flags0 = i == 0 || i == 5 ? kFirst : (i == 4 ? kTerminated : 0);
    REQUIRE(store.append(0, f.record(0, i, flags0), /*version=*/i));
    REQUIRE(store.append(1, f.record(1, i, i == 0 ? kFirst : 0), i));
  }
  // Each slot completed unrolls [0..3], [3..6], [6..9].
  CHECK(store.unrolls_completed() == 6);
  UnrollBatch b;
  REQUIRE(store.next_batch(6, b));
  REQUIRE(b.obs.sizes() == torch::IntArrayRef({L, 6, 1}));
  // Every field is written time-major, ready for one copy to a device.
  for (const auto& field : {b.obs, b.actions, b.policy, b.rewards, b.flags, b.core_h, b.core_c})
    CHECK(field.is_contiguous());
  int seen[2] = {0, 0};
  for (int j = 0; j < 6; ++j) {
    const int slot = static_cast<int>(b.slots[j].item<std::int64_t>());
    const int start = static_cast<int>(b.obs[0][j][0].item<float>()) - slot * 1000;
    CHECK(start % 3 == 0);
    seen[slot] |= 1 << (start / 3);
    for (int t = 0; t < L; ++t) {
      const int i = start + t;
      CHECK(b.obs[t][j][0].item<float>() == slot * 1000.f + i);
      CHECK(b.actions[t][j][0].item<float>() == 10.f + i);
      CHECK(b.policy[t][j][1].item<float>() == -static_cast<float>(i));
      CHECK(b.rewards[t][j].item<float>() == 0.5f * i);
      const int expect_flags =
          slot == 0 ? (i == 0 || i == 5 ? kFirst : (i == 4 ? kTerminated : 0)) : (i == 0 ? kFirst : 0);
      CHECK(static_cast<int>(b.flags[t][j].item<std::uint8_t>()) == expect_flags);
    }
    CHECK(b.core_h[j][0].item<float>() == 100.f + start + slot * 1000.f);
    CHECK(b.core_c[j][1].item<float>() == 400.f + start);
    CHECK(b.versions[j].item<std::int64_t>() == start);  // the version that acted on entry 0
  }
  CHECK(seen[0] == 7);
  CHECK(seen[1] == 7);
}

TEST_CASE("a batch of image unrolls matches a byte-by-byte reference", "[trajectory]") {
  // uint8 [3, 2, 5] observations and 3 policy parameters, 5 slots interleaved.
  UnrollLayout layout;
  layout.observation = ArraySpec{{3, 2, 5}, DType::kUInt8};
  layout.action_width = 2;
  layout.policy_size = 3;
  layout.length = 4;
  layout.overlap = 1;
  const int slots = 5, bytes = 30;
  TrajectoryStore store(layout, slots, 16, 8);
  auto byte_of = [](int slot, int i, int k) { return static_cast<std::uint8_t>((slot * 53 + i * 7 + k * 3) % 251); };
  std::vector<std::uint8_t> obs(bytes);
  float action[2], policy[3];
  for (int i = 0; i < 7; ++i) {  // two unrolls per slot: [0..3], [3..6]
    for (int slot = 0; slot < slots; ++slot) {
      for (int k = 0; k < bytes; ++k) obs[k] = byte_of(slot, i, k);
      action[0] = slot + 0.25f * i;
      action[1] = -action[0];
      for (int p = 0; p < 3; ++p) policy[p] = 100.f * slot + 10.f * i + p;
      REQUIRE(store.append(slot, StepRecord{obs.data(), action, policy, nullptr, nullptr, 1.f * i, 0}, i));
    }
  }
  UnrollBatch b;
  REQUIRE(store.next_batch(8, b));
  REQUIRE(b.obs.sizes() == torch::IntArrayRef({4, 8, 3, 2, 5}));
  REQUIRE(b.obs.is_contiguous());
  const auto* o = b.obs.data_ptr<std::uint8_t>();
  const auto* a = b.actions.data_ptr<float>();
  const auto* p = b.policy.data_ptr<float>();
  for (int j = 0; j < 8; ++j) {
    const int slot = static_cast<int>(b.slots[j].item<std::int64_t>());
    const int start = static_cast<int>(b.versions[j].item<std::int64_t>());
    for (int t = 0; t < 4; ++t) {
      const int i = start + t;
      for (int k = 0; k < bytes; ++k) REQUIRE(o[(t * 8 + j) * bytes + k] == byte_of(slot, i, k));
      REQUIRE(a[(t * 8 + j) * 2 + 1] == -(slot + 0.25f * i));
      for (int q = 0; q < 3; ++q) REQUIRE(p[(t * 8 + j) * 3 + q] == 100.f * slot + 10.f * i + q);
      REQUIRE(b.rewards[t][j].item<float>() == 1.f * i);
    }
  }
}

TEST_CASE("staggered slots finish their unrolls in different rounds", "[trajectory]") {
  const int L = 5, slots = 8;  // a new unroll every 4 steps
  TrajectoryStore store(small_layout(L, 1, 2), slots, 64, 8);
  store.stagger_unrolls();
  FakeStep f;
  std::vector<int> finished_in_round;
  for (int i = 0; i < 16; ++i) {
    const auto before = store.unrolls_completed();
    for (int slot = 0; slot < slots; ++slot) REQUIRE(store.append(slot, f.record(slot, i, i == 0 ? kFirst : 0), i));
    finished_in_round.push_back(static_cast<int>(store.unrolls_completed() - before));
  }
  // Without staggering all 8 would finish in rounds 4, 8 and 12. Slot s skips
  // s mod 4 steps, so two slots finish in each round from round 4 on.
  for (int i = 0; i < 4; ++i) CHECK(finished_in_round[i] == 0);
  for (int i = 4; i < 16; ++i) CHECK(finished_in_round[i] == 2);
  UnrollBatch b;
  REQUIRE(store.next_batch(8, b));  // the first unroll of every slot
  for (int j = 0; j < 8; ++j) {
    const int slot = static_cast<int>(b.slots[j].item<std::int64_t>());
    const int start = slot % 4;
    // Recording starts at the first step not skipped, with that step's core state.
    for (int t = 0; t < L; ++t) CHECK(b.obs[t][j][0].item<float>() == slot * 1000.f + start + t);
    CHECK(b.core_h[j][0].item<float>() == 100.f + start + slot * 1000.f);
    CHECK(b.versions[j].item<std::int64_t>() == start);
  }
}

TEST_CASE("a burn-in overlap repeats the last entries and their core state", "[trajectory]") {
  // R2D2-style: length 6, overlap 3.
  TrajectoryStore store(small_layout(6, 3, 2), 1, 8, 2);
  FakeStep f;
  for (int i = 0; i < 9; ++i) REQUIRE(store.append(0, f.record(0, i, i == 0 ? kFirst : 0), 0));
  UnrollBatch b;
  REQUIRE(store.next_batch(2, b));
  for (int j = 0; j < 2; ++j) {
    const int start = static_cast<int>(b.obs[0][j][0].item<float>());
    CHECK((start == 0 || start == 3));
    for (int t = 0; t < 6; ++t) CHECK(b.obs[t][j][0].item<float>() == start + t);
    CHECK(b.core_h[j][0].item<float>() == 100.f + start);
  }
}

TEST_CASE("every unroll carries the core state of its own first step, whatever the overlap", "[trajectory]") {
  // R2D2's default geometry (40 burn-in + 80 + 1 entries, a new sequence every
  // 40 steps) has an overlap longer than the stride: an unroll's first entry
  // was copied from the previous unroll, never appended to this one. Checked
  // for every unroll of two staggered slots against the step that started it.
  const auto [L, O] = GENERATE(table<int, int>({{7, 5}, {6, 3}, {9, 8}, {5, 1}, {4, 0}, {121, 81}}));
  CAPTURE(L, O);
  const int S = L - O, steps = L + 12 * S, slots = 2;
  // Slot 0 completes 13 unrolls, slot 1 (staggered by one step) 12 or 13.
  TrajectoryStore store(small_layout(L, O, 2), slots, 32, 32);
  store.stagger_unrolls();
  FakeStep f;
  for (int i = 0; i < steps; ++i)
    for (int slot = 0; slot < slots; ++slot) REQUIRE(store.append(slot, f.record(slot, i, i == 0 ? kFirst : 0), i));
  const int n = static_cast<int>(store.queued());
  REQUIRE(n >= 25);
  UnrollBatch b;
  REQUIRE(store.next_batch(n, b));
  for (int j = 0; j < n; ++j) {
    const int slot = static_cast<int>(b.slots[j].item<std::int64_t>());
    const int start = static_cast<int>(b.obs[0][j][0].item<float>()) - slot * 1000;
    CAPTURE(j, slot, start);
    for (int t = 0; t < L; ++t) REQUIRE(b.obs[t][j][0].item<float>() == slot * 1000.f + start + t);
    CHECK(b.core_h[j][0].item<float>() == 100.f + start + slot * 1000.f);
    CHECK(b.core_h[j][1].item<float>() == 200.f + start);
    CHECK(b.core_c[j][0].item<float>() == 300.f + start);
    CHECK(b.core_c[j][1].item<float>() == 400.f + start);
  }
}

TEST_CASE("a borrowed unroll is the batch of one that next_batch gives, and goes back on release", "[trajectory]") {
  // The replay inserter's path: views of the pool, no gathered copy. Two
  // stores fed the same steps; one lends its unrolls, one gathers them. The
  // pool holds slots + queue + max_batch = 1 + 2 + 1 unrolls: 30 unrolls only
  // fit if each borrowed one comes back.
  const auto [L, O] = GENERATE(table<int, int>({{7, 5}, {2, 1}, {6, 0}}));
  CAPTURE(L, O);
  TrajectoryStore lending(small_layout(L, O, 2), 1, 2, 1), gathering(small_layout(L, O, 2), 1, 2, 1);
  FakeStep f;
  int i = 0, compared = 0;
  while (compared < 30) {
    const std::uint8_t flags = i == 0 ? kFirst : (i % 11 == 10 ? kTruncated : 0);
    REQUIRE(lending.append(0, f.record(0, i, flags), i / 3));
    REQUIRE(gathering.append(0, f.record(0, i, flags), i / 3));
    ++i;
    if (lending.queued() == 0) continue;
    UnrollBatch lent, gathered;
    const int u = lending.borrow_unroll(lent);
    REQUIRE(u >= 0);
    REQUIRE(gathering.next_batch(1, gathered));
    for (const auto& [a, b] : {std::pair{lent.obs, gathered.obs},
                               {lent.actions, gathered.actions},
                               {lent.policy, gathered.policy},
                               {lent.rewards, gathered.rewards},
                               {lent.flags, gathered.flags},
                               {lent.core_h, gathered.core_h},
                               {lent.core_c, gathered.core_c},
                               {lent.versions, gathered.versions},
                               {lent.slots, gathered.slots}}) {
      REQUIRE(a.sizes() == b.sizes());
      CHECK(torch::equal(a, b));
    }
    lending.release(u);
    ++compared;
  }
  lending.close();
  UnrollBatch none;
  CHECK(lending.borrow_unroll(none) == -1);
}

TEST_CASE("dropping a partial unroll starts the slot afresh", "[trajectory]") {
  TrajectoryStore store(small_layout(4, 1, 0), 1, 4, 1);
  FakeStep f;
  REQUIRE(store.append(0, f.record(0, 0, kFirst), 0));
  REQUIRE(store.append(0, f.record(0, 1, 0), 0));
  store.drop_partial(0);
  for (int i = 50; i < 54; ++i) REQUIRE(store.append(0, f.record(0, i, i == 50 ? kFirst : 0), 0));
  UnrollBatch b;
  REQUIRE(store.next_batch(1, b));
  for (int t = 0; t < 4; ++t) CHECK(b.obs[t][0][0].item<float>() == 50.f + t);
}

TEST_CASE("a full queue blocks the producer until the learner takes a batch", "[trajectory]") {
  TrajectoryStore store(small_layout(2, 1, 0), 1, 1, 1);
  FakeStep f;
  std::atomic<int> appended{0};
  std::thread producer([&] {
    // Unrolls complete at steps 1 and 2: the second cannot be queued.
    for (int i = 0; i < 3; ++i) {
      if (!store.append(0, f.record(0, i, 0), 0)) return;
      appended.fetch_add(1);
    }
  });
  // Step 2 completes the second unroll (counted before it is queued) and
  // blocks on the full queue; a producer that did not block would soon have
  // appended a third step.
  CHECK(seedrl::test::wait_until([&] { return store.unrolls_completed() == 2 && appended.load() == 2; }));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(appended.load() == 2);
  UnrollBatch b;
  REQUIRE(store.next_batch(1, b));
  CHECK(b.obs[0][0][0].item<float>() == 0.f);
  producer.join();
  CHECK(appended.load() == 3);
  store.close();
  CHECK_FALSE(store.next_batch(1, b));
}

// Hidden: bench/cuda/run-on-gpu.sh runs it on a GPU machine.
TEST_CASE("pinned batches copy to the GPU intact", "[.gpu][trajectory]") {
  REQUIRE(torch::cuda::is_available());
  TrajectoryStore store(small_layout(4, 1, 2), 2, 16, 4);
  store.pin_batches(true);
  FakeStep f;
  for (int i = 0; i < 10; ++i)
    for (int slot = 0; slot < 2; ++slot) REQUIRE(store.append(slot, f.record(slot, i, i == 0 ? kFirst : 0), i));
  UnrollBatch b;
  REQUIRE(store.next_batch(6, b));
  for (const auto& field : {b.obs, b.actions, b.policy, b.rewards, b.flags, b.core_h, b.core_c}) {
    CHECK(field.is_pinned());
    CHECK(field.is_contiguous());
    const auto on_gpu = field.to(torch::Device(torch::kCUDA, 0), /*non_blocking=*/true);
    CHECK(torch::equal(on_gpu.cpu(), field));
  }
}
