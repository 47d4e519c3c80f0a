// Whether bfloat16 matrix products outrun float32's on a device, which is
// what --precision auto asks: a CPU with AMX, or with AVX512-BF16 on a core
// that issues its dot products as fast as its FMAs (AMD's; an Intel core
// without AMX does the same multiply-adds per cycle either way, so bfloat16
// only adds conversions), or a CUDA GPU of compute capability 8.0 or later
// (bfloat16 tensor cores). Elsewhere bfloat16 costs more than it saves, and
// without the instructions LibTorch emulates it many times slower
// (bench/RESULTS.md).
#pragma once

#include <torch/types.h>

namespace seedrl {

bool bf16_faster(const torch::Device& device);

}  // namespace seedrl
