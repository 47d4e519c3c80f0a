// Whether bfloat16 matrix products outrun float32's on a device, which is
// what --precision auto asks: on a CPU, CpuVectorSupport::bf16_faster
// (util/blas_kernels.h says which CPUs and why); a CUDA GPU of compute
// capability 8.0 or later (bfloat16 tensor cores). Elsewhere bfloat16 costs
// more than it saves (bench/RESULTS.md).
#pragma once

#include <torch/types.h>

namespace seedrl {

bool bf16_faster(const torch::Device& device);

}  // namespace seedrl
