// Memory for blocks too large for glibc's heap (above kHeapBlockMaxBytes,
// heap_tuning.h). glibc maps each such block afresh and unmaps it on free, so
// a learner that allocates the same batch-sized tensors every update (an R2D2
// Atari batch converts hundreds of MB of frames to float) faulted all of that
// memory in again, one zeroed page at a time, every update. This cache keeps
// freed blocks mapped and hands them out again; the blocks are 2 MiB aligned
// and advised to use transparent huge pages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace seedrl {

class LargeBlockCache {
 public:
  // Blocks are sized and aligned to this (a transparent huge page).
  static constexpr std::size_t kGranule = std::size_t{2} << 20;

  // `max_idle_bytes`: freed blocks kept for reuse at most; beyond it the ones
  // freed longest ago are unmapped.
  explicit LargeBlockCache(std::size_t max_idle_bytes);
  // Unmaps the idle blocks; blocks still handed out stay mapped.
  ~LargeBlockCache();
  LargeBlockCache(const LargeBlockCache&) = delete;
  LargeBlockCache& operator=(const LargeBlockCache&) = delete;

  // At least `bytes` (> 0) of writable memory: the smallest idle block that
  // fits and wastes under a quarter of itself, else a new mapping. Throws
  // std::bad_alloc when the system has no memory left.
  void* allocate(std::size_t bytes);
  // Takes back a block from allocate(); false (and nothing done) for any
  // other pointer. Thread-safe, like allocate().
  bool release(void* block);

  struct Stats {
    std::uint64_t mapped = 0;  // allocate() calls that made a new mapping
    std::uint64_t reused = 0;  // allocate() calls served by an idle block
    std::size_t live_bytes = 0;
    std::size_t idle_bytes = 0;
  };
  Stats stats() const;

 private:
  struct Block {
    void* data;
    std::size_t bytes;
  };
  void unmap_oldest_idle_locked();

  const std::size_t max_idle_bytes_;
  mutable std::mutex mutex_;
  std::unordered_map<void*, std::size_t> live_;
  std::vector<Block> idle_;  // freed longest ago first
  Stats stats_;
};

}  // namespace seedrl
