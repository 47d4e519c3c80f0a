// Whether a device computes bfloat16 in hardware: a CPU with AVX512-BF16 or
// AMX, a CUDA GPU of compute capability 8.0 or later (bfloat16 tensor cores).
// Elsewhere LibTorch emulates bfloat16 in float32 code paths, many times
// slower than float32 itself (bench/RESULTS.md), which is what
// --precision auto avoids.
#pragma once

#include <torch/types.h>

namespace seedrl {

bool native_bf16(const torch::Device& device);

}  // namespace seedrl
