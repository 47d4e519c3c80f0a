// The central recurrent-state table: gather zeroes the rows that start an
// episode, scatter writes rows back, and many inference threads working on
// disjoint slots at once never lose an update.
#include <catch2/catch.hpp>
#include <thread>
#include <vector>

#include <torch/torch.h>

#include "seedrl/inference/core_state_table.h"

using namespace seedrl;

TEST_CASE("core state table: gather zeroes episode starts, scatter writes rows back", "[inference][core]") {
  const int slots = 6, H = 3;
  auto h = torch::arange(slots * H, torch::kFloat32).reshape({slots, H});
  CoreStateTable table({h.clone(), (-h).clone()});
  REQUIRE(table.enabled());

  auto idx = torch::tensor({4, 1, 2}, torch::kInt64);
  auto first = torch::tensor({false, true, false});
  CoreState s = table.gather(idx, first);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < H; ++j) {
      const float want = i == 1 ? 0.f : static_cast<float>(idx[i].item<int64_t>() * H + j);
      CHECK(s.h[i][j].item<float>() == want);
      CHECK(s.c[i][j].item<float>() == -want);
    }
  // Gathering copies: the table is untouched until scatter.
  s.h.fill_(100.f);
  CHECK(table.gather(torch::tensor({4}, torch::kInt64), torch::tensor({false})).h[0][0].item<float>() == 12.f);

  table.scatter(idx, {torch::full({3, H}, 7.f), torch::full({3, H}, 8.f)});
  auto all = table.gather(torch::arange(slots, torch::kInt64), torch::zeros({slots}, torch::kBool));
  for (int r = 0; r < slots; ++r) {
    const bool written = r == 4 || r == 1 || r == 2;
    CHECK(all.h[r][0].item<float>() == (written ? 7.f : static_cast<float>(r * H)));
    CHECK(all.c[r][2].item<float>() == (written ? 8.f : -static_cast<float>(r * H + 2)));
  }
  // step(): writes `after`, hands back `before` on the host.
  CoreState before{torch::full({1, H}, 3.f), torch::full({1, H}, 4.f)};
  CoreState pre =
      table.step(torch::tensor({5}, torch::kInt64), before, {torch::full({1, H}, 9.f), torch::zeros({1, H})});
  CHECK(pre.h.device().is_cpu());
  CHECK(torch::equal(pre.h, before.h));
  CHECK(torch::equal(pre.c, before.c));
  CHECK(table.gather(torch::tensor({5}, torch::kInt64), torch::tensor({false})).h[0][1].item<float>() == 9.f);
  table.reset(4);
  CHECK(table.gather(torch::tensor({4}, torch::kInt64), torch::tensor({false})).h.abs().sum().item<float>() == 0.f);

  CoreStateTable none;
  CHECK_FALSE(none.enabled());
  CHECK_FALSE(none.gather(idx, first).defined());
}

TEST_CASE("core state table: 16 threads on disjoint slots lose no update", "[inference][core][threads]") {
  const int threads = 16, per_thread = 4, H = 8, rounds = 300;
  CoreStateTable table({torch::zeros({threads * per_thread, H}), torch::zeros({threads * per_thread, H})});
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      auto idx = torch::arange(t * per_thread, (t + 1) * per_thread, torch::kInt64);
      auto keep = torch::zeros({per_thread}, torch::kBool);
      for (int r = 0; r < rounds; ++r) {
        CoreState s = table.gather(idx, keep);
        table.scatter(idx, {s.h + 1, s.c - 1});  // like one LSTM step per batch
      }
    });
  for (auto& th : pool) th.join();
  auto all = table.gather(torch::arange(threads * per_thread, torch::kInt64),
                          torch::zeros({threads * per_thread}, torch::kBool));
  CHECK(torch::all(all.h == static_cast<float>(rounds)).item<bool>());
  CHECK(torch::all(all.c == -static_cast<float>(rounds)).item<bool>());
}
