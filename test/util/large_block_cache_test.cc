// LargeBlockCache: freed blocks come back for requests of their size, the
// idle bytes stay under the bound, and many threads allocating, writing and
// freeing at once never share a block.
#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "seedrl/util/large_block_cache.h"

using seedrl::LargeBlockCache;

namespace {
constexpr std::size_t kMiB = std::size_t{1} << 20;
}

TEST_CASE("a freed large block serves the next request of its size", "[util][allocator]") {
  LargeBlockCache cache(1024 * kMiB);
  void* first = cache.allocate(40 * kMiB + 3);
  REQUIRE(first != nullptr);
  CHECK(reinterpret_cast<std::uintptr_t>(first) % LargeBlockCache::kGranule == 0);
  std::memset(first, 0x5a, 40 * kMiB + 3);       // all of it is writable
  CHECK(cache.stats().live_bytes == 42 * kMiB);  // rounded up to whole 2 MiB granules
  REQUIRE(cache.release(first));
  for (int i = 0; i < 10; ++i) {
    void* again = cache.allocate(40 * kMiB + 3);
    CHECK(again == first);
    REQUIRE(cache.release(again));
  }
  const LargeBlockCache::Stats s = cache.stats();
  CHECK(s.mapped == 1);
  CHECK(s.reused == 10);
  CHECK(s.live_bytes == 0);
  CHECK(s.idle_bytes == 42 * kMiB);
}

TEST_CASE("an idle block serves only requests that use most of it", "[util][allocator]") {
  LargeBlockCache cache(1024 * kMiB);
  void* big = cache.allocate(64 * kMiB);
  REQUIRE(cache.release(big));
  // 48 MiB would leave a quarter of the 64 MiB block unused: a new mapping.
  void* smaller = cache.allocate(48 * kMiB);
  CHECK(smaller != big);
  // 50 MiB leaves 14 MiB, under a quarter: the idle block.
  void* fits = cache.allocate(50 * kMiB);
  CHECK(fits == big);
  // Larger than every idle block: a new mapping.
  REQUIRE(cache.release(smaller));
  void* larger = cache.allocate(66 * kMiB);
  CHECK(larger != big);
  CHECK(larger != smaller);
  CHECK(cache.stats().mapped == 3);
  CHECK(cache.stats().reused == 1);
  CHECK(cache.release(fits));
  CHECK(cache.release(larger));
}

TEST_CASE("idle large blocks beyond the bound are unmapped, those freed longest ago first", "[util][allocator]") {
  LargeBlockCache cache(100 * kMiB);
  void* a = cache.allocate(40 * kMiB);
  void* b = cache.allocate(40 * kMiB);
  void* c = cache.allocate(40 * kMiB);
  REQUIRE(cache.release(a));
  REQUIRE(cache.release(b));
  CHECK(cache.stats().idle_bytes == 80 * kMiB);
  REQUIRE(cache.release(c));  // 120 MiB idle > 100: `a` goes
  CHECK(cache.stats().idle_bytes == 80 * kMiB);
  // b and c are still there to be reused, and then nothing idle is left.
  void* x = cache.allocate(40 * kMiB);
  void* y = cache.allocate(40 * kMiB);
  CHECK(((x == b && y == c) || (x == c && y == b)));
  CHECK(cache.stats().idle_bytes == 0);
  CHECK(cache.stats().reused == 2);
  CHECK(cache.release(x));
  CHECK(cache.release(y));
}

TEST_CASE("releasing a pointer the cache did not hand out does nothing", "[util][allocator]") {
  LargeBlockCache cache(100 * kMiB);
  int local = 0;
  CHECK_FALSE(cache.release(&local));
  void* block = cache.allocate(33 * kMiB);
  CHECK(cache.release(block));
  CHECK_FALSE(cache.release(block));  // twice: the second is refused
  CHECK(cache.stats().idle_bytes == 34 * kMiB);
}

TEST_CASE("many threads allocating, writing and freeing large blocks never share one", "[util][allocator]") {
  constexpr int kThreads = 16;
  constexpr int kRounds = 40;
  LargeBlockCache cache(256 * kMiB);
  std::atomic<int> corrupted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRounds; ++r) {
        const std::size_t bytes = (33 + static_cast<std::size_t>((t + r) % 3) * 4) * kMiB;
        auto* p = static_cast<unsigned char*>(cache.allocate(bytes));
        const auto mark = static_cast<unsigned char>(t * kRounds + r);
        std::memset(p, mark, bytes);
        std::this_thread::yield();
        // Another thread given the same block would have overwritten it.
        for (std::size_t i = 0; i < bytes; i += 4096)
          if (p[i] != mark) ++corrupted;
        if (p[bytes - 1] != mark) ++corrupted;
        if (!cache.release(p)) ++corrupted;
      }
    });
  for (auto& th : threads) th.join();
  const LargeBlockCache::Stats s = cache.stats();
  CHECK(corrupted.load() == 0);
  CHECK(s.live_bytes == 0);
  CHECK(s.idle_bytes <= 256 * kMiB);
  CHECK(s.mapped + s.reused == static_cast<std::uint64_t>(kThreads * kRounds));
  CHECK(s.reused > 0);
}
