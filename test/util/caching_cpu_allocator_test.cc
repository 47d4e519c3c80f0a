// The caching CPU allocator as LibTorch's: large tensors reuse the memory of
// freed ones of their size, small ones and the raw interface still work, and
// tensors made before it was installed free as before.
#include <cstdint>

#include <c10/core/CPUAllocator.h>
#include <torch/torch.h>
#include <catch2/catch.hpp>

#include "seedrl/util/caching_cpu_allocator.h"
#include "seedrl/util/heap_tuning.h"

TEST_CASE("LibTorch's large CPU tensors reuse the memory of freed ones", "[util][allocator]") {
  const torch::Tensor before = torch::ones({64, 1024, 1024});  // 256 MiB, from LibTorch's own allocator
  seedrl::install_caching_cpu_allocator();
  seedrl::install_caching_cpu_allocator();  // idempotent
  const seedrl::LargeBlockCache* cache = seedrl::caching_cpu_allocator_cache();
  REQUIRE(cache != nullptr);
  const auto mapped0 = cache->stats().mapped;
  const auto reused0 = cache->stats().reused;

  const std::int64_t n = 12 * 1024 * 1024;  // 48 MiB of float
  void* first = nullptr;
  for (int i = 0; i < 5; ++i) {
    torch::Tensor t = torch::arange(n, torch::kFloat64).to(torch::kFloat32);  // 96 MiB, then 48 MiB
    if (i == 0) first = t.data_ptr();
    CHECK(t.data_ptr() == first);
    // sum 0..n-1 in closed form; exact in double for these integers below 2^24.
    CHECK(t.to(torch::kFloat64).sum().item<double>() == static_cast<double>(n) * (n - 1) / 2);
  }
  // Three blocks (float64 source, float32 result, the float64 copy to sum)
  // mapped once; the other 12 allocations reused them.
  CHECK(cache->stats().mapped - mapped0 <= 3);
  CHECK(cache->stats().reused - reused0 >= 12);

  // Small tensors come from LibTorch's allocator, not the cache.
  const auto live = cache->stats().live_bytes;
  const torch::Tensor small = torch::full({1000}, 2.0f);
  CHECK(small.sum().item<float>() == 2000.0f);
  CHECK(cache->stats().live_bytes == live);

  // The raw interface frees either kind through its one deleter.
  c10::Allocator* a = c10::GetCPUAllocator();
  REQUIRE(a->raw_deleter() != nullptr);
  void* raw_small = a->raw_allocate(4096);
  void* raw_large = a->raw_allocate(seedrl::kHeapBlockMaxBytes + 1);
  CHECK(cache->stats().live_bytes > live);
  a->raw_deallocate(raw_large);
  a->raw_deallocate(raw_small);
  CHECK(cache->stats().live_bytes == live);

  CHECK(before.sum().item<double>() == 64.0 * 1024 * 1024);
}
