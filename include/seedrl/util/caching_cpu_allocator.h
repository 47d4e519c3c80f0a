// LibTorch's CPU allocator, with blocks above kHeapBlockMaxBytes
// (heap_tuning.h) kept for reuse in a LargeBlockCache instead of being mapped
// and faulted in afresh by every update. Smaller blocks go to LibTorch's own
// allocator as before.
#pragma once

#include <cstddef>

#include "seedrl/util/large_block_cache.h"

namespace seedrl {

// Freed large blocks kept at most. A learner reuses its blocks every update,
// so its idle bytes stay near one update's working set, far below this; the
// bound only matters when block sizes keep changing.
inline constexpr std::size_t kMaxIdleLargeBlockBytes = std::size_t{4} << 30;

// Makes the caching allocator LibTorch's CPU allocator. Idempotent and
// thread-safe; tensors allocated before it free as they always did.
void install_caching_cpu_allocator();

// The cache behind it (its stats); nullptr before install_caching_cpu_allocator().
const LargeBlockCache* caching_cpu_allocator_cache();

}  // namespace seedrl
