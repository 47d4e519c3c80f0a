// Process-wide LibTorch settings made once at start: the heap (heap_tuning.h),
// intra-op threads and, when a GPU takes part, the cuDNN/cuBLAS choices that
// suit fixed-shape RL batches.
#pragma once

namespace seedrl {

// `threads`: LibTorch intra-op threads. `uses_cuda`: some model runs on a GPU;
// then float32 matmuls and convolutions may use TF32 tensor cores.
void configure_torch_runtime(int threads, bool uses_cuda);

}  // namespace seedrl
