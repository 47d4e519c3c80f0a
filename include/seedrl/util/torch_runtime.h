// Process-wide LibTorch settings made once at start: the heap (heap_tuning.h)
// and the CPU allocator's cache of large blocks (caching_cpu_allocator.h),
// intra-op threads and, when a GPU takes part, the cuDNN/cuBLAS choices that
// suit fixed-shape RL batches.
#pragma once

namespace seedrl {

// `threads`: LibTorch intra-op threads. `uses_cuda`: some model runs on a GPU;
// then float32 matmuls and convolutions may use TF32 tensor cores.
// Throws std::invalid_argument naming --torch-threads, before setting
// anything, when `threads` exceeds the CPUs the process may use: every op
// would wake threads that mostly wait for each other and spin, until the run
// makes no progress and does not even exit in time.
void configure_torch_runtime(int threads, bool uses_cuda);

}  // namespace seedrl
