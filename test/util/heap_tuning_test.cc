// Heap arenas: with many actor threads per hardware thread every thread
// allocates from glibc's main arena (counted in malloc_info's report); with
// few, or when the user set MALLOC_ARENA_MAX, nothing changes.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "seedrl/util/heap_tuning.h"

namespace {

#if defined(__GLIBC__)
// Arenas glibc has made so far: malloc_info writes one <heap nr="..."> each.
int arenas() {
  char* buf = nullptr;
  std::size_t len = 0;
  FILE* f = open_memstream(&buf, &len);
  malloc_info(0, f);
  std::fclose(f);
  const std::string xml(buf, len);
  std::free(buf);
  int n = 0;
  for (std::size_t pos = 0; (pos = xml.find("<heap nr=", pos)) != std::string::npos; ++pos) ++n;
  return n;
}

// Threads that each hold a block while all of them run, so none can inherit
// another's free arena.
void allocate_on_threads(int n) {
  std::vector<std::thread> threads;
  std::atomic<int> holding{0};
  for (int i = 0; i < n; ++i)
    threads.emplace_back([&] {
      void* p = std::malloc(200 * 1024);
      ++holding;
      while (holding.load() < n) std::this_thread::yield();
      std::free(p);
    });
  for (auto& t : threads) t.join();
}
#endif

}  // namespace

TEST_CASE("oversubscribed runs allocate from one heap arena", "[util][heap]") {
#if defined(__GLIBC__)
  const int hw = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const int threshold = seedrl::kActorsPerThreadForOneArena * hw;
  if (arenas() > 1) {
    WARN("other tests made arenas in this process already; run this test alone (ctest does)");
    return;
  }
  CHECK_FALSE(seedrl::share_one_heap_arena_for(threshold));  // at the threshold: left as is
  setenv("MALLOC_ARENA_MAX", "4", 1);
  CHECK_FALSE(seedrl::share_one_heap_arena_for(threshold + 1));  // the user's choice wins
  unsetenv("MALLOC_ARENA_MAX");
  REQUIRE(seedrl::share_one_heap_arena_for(threshold + 1));
  allocate_on_threads(12);
  CHECK(arenas() == 1);
#endif
}
