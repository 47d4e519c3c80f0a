// R2D2's prioritised sequence replay through its public API: sampling
// frequencies (chi-squared), importance weights, compact uint8 storage,
// concurrent inserters and samplers, and the replay-ratio rate limiter.
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <thread>
#include <vector>

#include <torch/torch.h>

#include "../util/wait_until.h"
#include "seedrl/learner/r2d2/replay.h"

using namespace seedrl;
using namespace seedrl::r2d2;

namespace {

UnrollLayout layout_for(DType dtype, int length = 6, int core = 3) {
  UnrollLayout l;
  l.observation.shape = {4};
  l.observation.dtype = dtype;
  l.action_width = 1;
  l.policy_size = 1;
  l.core_size = core;
  l.length = length;
  return l;
}

// A one-sequence time-major batch whose every field holds `id`.
UnrollBatch sequence(const UnrollLayout& l, int id) {
  UnrollBatch b;
  const auto dt = l.observation.dtype == DType::kUInt8 ? torch::kUInt8 : torch::kFloat32;
  b.obs = torch::full({l.length, 1, 4}, dt == torch::kUInt8 ? id % 256 : id, torch::dtype(dt));
  b.actions = torch::full({l.length, 1, 1}, static_cast<float>(id));
  b.policy = torch::full({l.length, 1, 1}, static_cast<float>(id));
  b.rewards = torch::full({l.length, 1}, static_cast<float>(id));
  b.flags = torch::full({l.length, 1}, id % 7, torch::kUInt8);
  b.core_h = torch::full({1, l.core_size}, static_cast<float>(id));
  b.core_c = torch::full({1, l.core_size}, static_cast<float>(-id));
  b.versions = torch::full({1}, id, torch::kInt64);
  return b;
}

ReplayConfig config(std::int64_t capacity) {
  ReplayConfig c;
  c.capacity = capacity;
  c.min_fill = 1;
  c.check_memory = false;
  return c;
}

}  // namespace

TEST_CASE("replay samples sequences in proportion to p^alpha (chi-squared)", "[r2d2][replay]") {
  const auto l = layout_for(DType::kFloat32);
  auto c = config(8);
  c.priority_exponent = 0.9;
  Replay replay(l, c);
  const std::vector<double> p = {0.1, 0.5, 1.0, 2.0, 3.0, 0.05, 4.0, 1.5};
  for (int i = 0; i < 8; ++i) REQUIRE(replay.insert(sequence(l, i), 0, p[i]));
  double z = 0;
  std::vector<double> expected(8);
  for (int i = 0; i < 8; ++i) z += std::pow(p[i], 0.9);
  std::vector<int> counts(8, 0);
  const int batches = 400, B = 50, draws = batches * B;
  ReplaySample s;
  for (int k = 0; k < batches; ++k) {
    REQUIRE(replay.sample(B, s));
    // Each sequence comes back intact: its id is its ring position (inserted in order).
    auto ids = s.batch.rewards[0];
    for (int i = 0; i < B; ++i) {
      REQUIRE(ids[i].item<float>() == static_cast<float>(s.indices[i]));
      ++counts[s.indices[i]];
    }
  }
  double chi2 = 0;
  for (int i = 0; i < 8; ++i) {
    expected[i] = draws * std::pow(p[i], 0.9) / z;
    chi2 += (counts[i] - expected[i]) * (counts[i] - expected[i]) / expected[i];
  }
  // 7 degrees of freedom: P(chi2 > 24.32) = 0.001.
  CHECK(chi2 < 24.32);
  CHECK(replay.sampled() == static_cast<std::uint64_t>(draws));
}

TEST_CASE("a uniform replay (alpha 0) draws the sequences the sum tree's walk draws", "[r2d2][replay]") {
  // alpha 1e-300 leaves every p^alpha at 1 too, but takes the walk: the two
  // replays, seeded alike, must draw the same sequences as they fill and wrap.
  const auto l = layout_for(DType::kFloat32, 2, 0);
  ReplayConfig uc = config(37), wc = config(37);
  uc.priority_exponent = 0;
  wc.priority_exponent = 1e-300;
  uc.importance_exponent = wc.importance_exponent = 0;
  Replay uniform(l, uc), walked(l, wc);
  ReplaySample a, b;
  std::vector<int> seen(37, 0);
  for (int id = 0; id < 100; ++id) {
    REQUIRE(uniform.insert(sequence(l, id), 0));
    REQUIRE(walked.insert(sequence(l, id), 0));
    REQUIRE(uniform.sample(64, a));
    REQUIRE(walked.sample(64, b));
    REQUIRE(a.indices == b.indices);
    CHECK(torch::equal(a.batch.obs, b.batch.obs));
    CHECK(a.probabilities == b.probabilities);
    for (const auto k : a.indices) {
      REQUIRE(k < uniform.size());
      ++seen[static_cast<std::size_t>(k)];
    }
  }
  // Every position drawn, the last included (no off-by-one at the top).
  for (int k = 0; k < 37; ++k) CHECK(seen[static_cast<std::size_t>(k)] > 0);
}

TEST_CASE("importance weights are (N P(i))^-beta over their batch maximum", "[r2d2][replay]") {
  const auto l = layout_for(DType::kFloat32);
  auto c = config(16);
  c.priority_exponent = 0.7;
  c.importance_exponent = 0.6;
  Replay replay(l, c);
  const int N = 10;  // fewer than capacity: N counts stored sequences
  std::vector<double> p(N);
  double z = 0;
  for (int i = 0; i < N; ++i) {
    p[i] = 0.2 + 0.5 * i;
    z += std::pow(p[i], 0.7);
    REQUIRE(replay.insert(sequence(l, i), 0, p[i]));
  }
  ReplaySample s;
  REQUIRE(replay.sample(32, s));
  std::vector<double> w(32);
  double wmax = 0;
  for (int i = 0; i < 32; ++i) {
    const double prob = std::pow(p[s.indices[i]], 0.7) / z;
    CHECK(s.probabilities[i] == Approx(prob));
    w[i] = std::pow(N * prob, -0.6);
    wmax = std::max(wmax, w[i]);
  }
  for (int i = 0; i < 32; ++i) CHECK(s.weights[i].item<float>() == Approx(w[i] / wmax).epsilon(1e-5));
  CHECK(s.weights.max().item<float>() == Approx(1.0f));

  // Updated priorities change the distribution; new sequences get the max so far.
  std::vector<double> fresh(32, 9.0);
  replay.update_priorities(s, fresh);
  CHECK(replay.priority_stats().max == Approx(9.0));
  REQUIRE(replay.insert(sequence(l, 99), 0));
  CHECK(replay.priority_stats().max == Approx(9.0));
}

TEST_CASE("replay stores uint8 observations as uint8 and reports its size", "[r2d2][replay]") {
  const auto l8 = layout_for(DType::kUInt8, 10, 0), lf = layout_for(DType::kFloat32, 10, 0);
  Replay r8(l8, config(100)), rf(lf, config(100));
  CHECK(r8.byte_size() < rf.byte_size());
  CHECK(rf.byte_size() - r8.byte_size() == 100u * 10u * 4u * 3u);  // 3 bytes saved per observation element
  REQUIRE(r8.insert(sequence(l8, 200), 0));
  ReplaySample s;
  REQUIRE(r8.sample(2, s));
  CHECK(s.batch.obs.dtype() == torch::kUInt8);
  CHECK(s.batch.obs[3][1][2].item<int>() == 200);
}

TEST_CASE("replay refuses a capacity that cannot fit in memory", "[r2d2][replay]") {
  auto c = config(std::int64_t{1} << 40);
  c.check_memory = true;
  try {
    Replay r(layout_for(DType::kFloat32), c);
    FAIL("expected an error");
  } catch (const std::invalid_argument& e) {
    CHECK_THAT(e.what(), Catch::Contains("--replay-capacity"));
  }
}

TEST_CASE("replay stays consistent under concurrent inserters and samplers", "[r2d2][replay][concurrency]") {
  const auto l = layout_for(DType::kFloat32, 8, 4);
  Replay replay(l, config(64));  // smaller than the insert count: the ring wraps many times
  const int inserters = 4, per_inserter = 600, samplers = 3;
  std::atomic<bool> bad{false};
  std::atomic<int> inserting{inserters};
  std::atomic<std::uint64_t> drawn{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < inserters; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < per_inserter; ++i)
        if (!replay.insert(sequence(l, t * per_inserter + i + 1), 0, 0.5 + (i % 5))) bad = true;
      --inserting;
    });
  for (int t = 0; t < samplers; ++t)
    threads.emplace_back([&] {
      ReplaySample s;
      while (inserting.load() > 0) {
        if (!replay.sample(8, s)) {
          bad = true;
          return;
        }
        drawn += 8;
        // Every field of a sampled sequence carries the same id: no torn copies.
        for (int b = 0; b < 8; ++b) {
          const float id = s.batch.rewards[0][b].item<float>();
          const bool same = s.batch.rewards.select(1, b).eq(id).all().item<bool>() &&
                            s.batch.actions.select(1, b).eq(id).all().item<bool>() &&
                            s.batch.policy.select(1, b).eq(id).all().item<bool>() &&
                            s.batch.obs.select(1, b).eq(id).all().item<bool>() &&
                            s.batch.core_h[b].eq(id).all().item<bool>() &&
                            s.batch.core_c[b].eq(-id).all().item<bool>() &&
                            s.batch.versions[b].item<std::int64_t>() == static_cast<std::int64_t>(id);
          if (!same) bad = true;
        }
        replay.update_priorities(s, std::vector<double>(8, 1.0));
      }
    });
  for (auto& th : threads) th.join();
  CHECK_FALSE(bad.load());
  CHECK(replay.inserted() == static_cast<std::uint64_t>(inserters * per_inserter));
  CHECK(replay.size() == 64);
  CHECK(replay.sampled() == drawn.load());
}

TEST_CASE("the rate limiter holds samples per insert near the replay ratio", "[r2d2][replay][concurrency]") {
  const auto l = layout_for(DType::kFloat32, 4, 0);
  auto c = config(1000);
  c.replay_ratio = 2.0;
  c.min_fill = 20;
  c.tolerance = 16;
  Replay replay(l, c);
  std::thread learner([&] {
    ReplaySample s;
    while (replay.sample(4, s)) {
    }
  });
  // The inserter runs much faster than the learner could without the limiter.
  for (int i = 0; i < 500; ++i) REQUIRE(replay.insert(sequence(l, i), 0));
  // Wait for the learner to catch up with what it is owed.
  CHECK(seedrl::test::wait_until([&] { return replay.sampled() + 4 > 2.0 * (500 - 20); }));
  const double sampled = static_cast<double>(replay.sampled());
  replay.close();
  learner.join();
  // sampled <= ratio (inserted - min_fill) + batch, and inserts never ran more
  // than the tolerance ahead of the learner.
  CHECK(sampled <= 2.0 * (500 - 20) + 4);
  CHECK(sampled >= 2.0 * (500 - 20) - 16 - 4);
  ReplaySample s;
  CHECK_FALSE(replay.sample(4, s));  // closed: returns at once
  CHECK_FALSE(replay.insert(sequence(l, 1), 0));
}

TEST_CASE("inserts wait for a learner that falls behind the replay ratio", "[r2d2][replay][concurrency]") {
  const auto l = layout_for(DType::kFloat32, 4, 0);
  auto c = config(1000);
  c.replay_ratio = 2.0;
  c.min_fill = 20;
  c.tolerance = 16;
  Replay replay(l, c);
  std::atomic<int> returned_false{0};
  std::thread inserter([&] {
    for (int i = 0; i < 100; ++i)
      if (!replay.insert(sequence(l, i), 0)) {
        ++returned_false;
        return;
      }
  });
  // min_fill, then while 2 (inserted - 20) <= 16: 20 + 8 + 1 inserts, then it
  // waits. An inserter that did not wait would soon be past 29.
  CHECK(seedrl::test::wait_until([&] { return replay.inserted() >= 29; }));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(replay.inserted() == 29);
  ReplaySample s;
  REQUIRE(replay.sample(8, s));  // the learner catches up a little: 4 more inserts may go
  CHECK(seedrl::test::wait_until([&] { return replay.inserted() >= 33; }));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(replay.inserted() == 33);
  replay.close();
  inserter.join();
  CHECK(returned_false.load() == 1);
}
