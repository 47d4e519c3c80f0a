// Counts heap allocations made through global operator new (std containers,
// LibTorch tensor and storage objects) in the seedrl_bench binary, per thread,
// so the hot-path benchmarks can report allocations per step; it should read 0.
#pragma once

#include <cstdint>

namespace seedrl::bench {

// operator new calls made by the calling thread so far.
std::uint64_t allocations_this_thread();

}  // namespace seedrl::bench
