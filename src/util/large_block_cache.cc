#include "seedrl/util/large_block_cache.h"

#include <new>

#include <sys/mman.h>

namespace seedrl {

namespace {

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

// `bytes` (a multiple of kGranule) mapped at a kGranule boundary: map a
// granule more than needed and unmap the slack on either side.
void* map_aligned(std::size_t bytes) {
  constexpr std::size_t g = LargeBlockCache::kGranule;
  void* raw = mmap(nullptr, bytes + g, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = round_up(start, g);
  if (aligned > start) munmap(raw, aligned - start);
  if (const std::size_t tail = start + g - aligned; tail > 0) munmap(reinterpret_cast<void*>(aligned + bytes), tail);
  void* block = reinterpret_cast<void*>(aligned);
#ifdef MADV_HUGEPAGE
  madvise(block, bytes, MADV_HUGEPAGE);  // only advice: without THP the block still works
#endif
  return block;
}

}  // namespace

LargeBlockCache::LargeBlockCache(std::size_t max_idle_bytes) : max_idle_bytes_(max_idle_bytes) {}

LargeBlockCache::~LargeBlockCache() {
  for (const Block& b : idle_) munmap(b.data, b.bytes);
}

void* LargeBlockCache::allocate(std::size_t bytes) {
  const std::size_t need = round_up(bytes == 0 ? 1 : bytes, kGranule);
  {
    std::lock_guard lock(mutex_);
    std::size_t best = idle_.size();
    for (std::size_t i = 0; i < idle_.size(); ++i) {
      const std::size_t have = idle_[i].bytes;
      if (have >= need && have - need < have / 4 && (best == idle_.size() || have < idle_[best].bytes)) best = i;
    }
    if (best < idle_.size()) {
      const Block b = idle_[best];
      idle_.erase(idle_.begin() + static_cast<std::ptrdiff_t>(best));
      stats_.idle_bytes -= b.bytes;
      stats_.live_bytes += b.bytes;
      ++stats_.reused;
      live_.emplace(b.data, b.bytes);
      return b.data;
    }
  }
  // Map outside the lock: the kernel call may take a while.
  void* block = map_aligned(need);
  std::lock_guard lock(mutex_);
  live_.emplace(block, need);
  stats_.live_bytes += need;
  ++stats_.mapped;
  return block;
}

bool LargeBlockCache::release(void* block) {
  std::lock_guard lock(mutex_);
  const auto it = live_.find(block);
  if (it == live_.end()) return false;
  const std::size_t bytes = it->second;
  live_.erase(it);
  stats_.live_bytes -= bytes;
  idle_.push_back({block, bytes});
  stats_.idle_bytes += bytes;
  while (stats_.idle_bytes > max_idle_bytes_) unmap_oldest_idle_locked();
  return true;
}

void LargeBlockCache::unmap_oldest_idle_locked() {
  const Block b = idle_.front();
  idle_.erase(idle_.begin());
  stats_.idle_bytes -= b.bytes;
  munmap(b.data, b.bytes);
}

LargeBlockCache::Stats LargeBlockCache::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace seedrl
