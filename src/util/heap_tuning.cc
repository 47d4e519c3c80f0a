#include "seedrl/util/heap_tuning.h"

#include <algorithm>
#include <cstdlib>
#include <thread>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace seedrl {

void keep_freed_memory_in_heap() {
#if defined(__GLIBC__)
  // Setting either value also stops glibc's own adjustment of the threshold,
  // which is why both are set.
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(kHeapBlockMaxBytes));
  mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
#endif
}

bool share_one_heap_arena_for(int actor_threads) {
#if defined(__GLIBC__)
  const int hw = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  if (actor_threads <= kActorsPerThreadForOneArena * hw) return false;
  if (std::getenv("MALLOC_ARENA_MAX") != nullptr) return false;  // the user's choice wins
  // One arena: the main (sbrk) heap, which the trim threshold above keeps.
  // With thousands of threads glibc hands the learner a thread arena shared
  // with hundreds of actors. Such an arena grows in 64 MiB sub-heaps, and a
  // sub-heap that empties is unmapped whatever the trim threshold, so each
  // update faulted its tensors in again, and oversubscribed runs fell far
  // behind ones with few actors; with one arena they run near those. With few
  // actors, own arenas are faster, so this is for oversubscribed runs only
  // (figures: bench/RESULTS.md).
  return mallopt(M_ARENA_MAX, 1) == 1;
#else
  (void)actor_threads;
  return false;
#endif
}

}  // namespace seedrl
