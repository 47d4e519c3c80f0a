#include "seedrl/util/caching_cpu_allocator.h"

#include <cstring>
#include <mutex>
#include <new>
#include <string>

#include <c10/core/Allocator.h>
#include <c10/core/CPUAllocator.h>
#include <c10/util/Exception.h>

#include "seedrl/util/heap_tuning.h"

namespace seedrl {

namespace {

LargeBlockCache* g_cache = nullptr;
c10::DeleterFnPtr g_fallback_raw_deleter = nullptr;

void release_large(void* block) { g_cache->release(block); }

// The raw interface frees blocks of either kind through one deleter.
void release_any(void* block) {
  if (block != nullptr && !g_cache->release(block)) g_fallback_raw_deleter(block);
}

class CachingCpuAllocator final : public c10::Allocator {
 public:
  explicit CachingCpuAllocator(c10::Allocator* fallback) : fallback_(fallback) {}

  // LibTorch 1.x declares allocate() const and 2.3+ not; whichever the base
  // declares, one of these overrides it.
  c10::DataPtr allocate(std::size_t n) const { return allocate_block(n); }
  c10::DataPtr allocate(std::size_t n) { return allocate_block(n); }
  // Pure virtual from LibTorch 2.3 on; an unused member before.
  void copy_data(void* dest, const void* src, std::size_t count) const { std::memcpy(dest, src, count); }

  c10::DeleterFnPtr raw_deleter() const override { return g_fallback_raw_deleter ? &release_any : nullptr; }

 private:
  c10::DataPtr allocate_block(std::size_t n) const {
    if (n < kHeapBlockMaxBytes) return fallback_->allocate(n);
    void* block = nullptr;
    try {
      block = g_cache->allocate(n);
    } catch (const std::bad_alloc&) {
      TORCH_CHECK(false, "CPU allocator: not enough memory: tried to allocate ", n, " bytes");
    }
    return {block, block, &release_large, c10::Device(c10::DeviceType::CPU)};
  }

  c10::Allocator* fallback_;
};

}  // namespace

void install_caching_cpu_allocator() {
  static std::once_flag once;
  std::call_once(once, [] {
    c10::Allocator* fallback = c10::GetCPUAllocator();
    g_fallback_raw_deleter = fallback->raw_deleter();
    // Never freed: tensors may outlive every other object of the process.
    g_cache = new LargeBlockCache(kMaxIdleLargeBlockBytes);
    c10::SetCPUAllocator(new CachingCpuAllocator(fallback));
  });
}

const LargeBlockCache* caching_cpu_allocator_cache() { return g_cache; }

}  // namespace seedrl
