#include "seedrl/util/heap_tuning.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace seedrl {

void keep_freed_memory_in_heap() {
#if defined(__GLIBC__)
  // 32 MiB is glibc's largest mmap threshold (half a thread arena's heap).
  // Setting either value also stops glibc's own adjustment of the threshold,
  // which is why both are set.
  mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
#endif
}

}  // namespace seedrl
