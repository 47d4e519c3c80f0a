// glibc heap settings for LibTorch's allocation pattern. The learner frees and
// reallocates the same multi-megabyte activation tensors every update. By
// default glibc serves such blocks with mmap, or trims them back to the OS on
// free, so every update page-faults its memory in again, which took a large
// share of an R2D2 update on MinAtar (bench/RESULTS.md).
// Thread arenas shared with thousands of actors undo that (heap_tuning.cc).
#pragma once

#include <cstddef>

namespace seedrl {

// Above this many actor threads per hardware thread, every thread shares one
// heap arena.
inline constexpr int kActorsPerThreadForOneArena = 64;

// glibc's largest mmap threshold (half a thread arena's heap): larger blocks
// are always mapped afresh (caching_cpu_allocator.h keeps LibTorch's).
inline constexpr std::size_t kHeapBlockMaxBytes = std::size_t{32} << 20;

// Serve blocks up to kHeapBlockMaxBytes from the heap and keep freed memory there for
// reuse. Idempotent; a no-op outside glibc.
void keep_freed_memory_in_heap();

// With more than kActorsPerThreadForOneArena actor threads per hardware
// thread, and no MALLOC_ARENA_MAX in the environment, limits glibc to its
// main arena; returns whether it did. Call before the run's threads start:
// glibc fixes its arena limit when it is about to make its ninth arena.
bool share_one_heap_arena_for(int actor_threads);

}  // namespace seedrl
