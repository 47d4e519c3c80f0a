// Whether a tensor is n float32 values in a row on the CPU: what the SAC
// update's one-loop forms (learner/sac/sac_losses.cc, actor_gradients.cc)
// read directly; anything else takes LibTorch's tensor ops.
#pragma once

#include <cstdint>

#include <ATen/core/Tensor.h>

namespace seedrl::sac {

inline bool cpu_float32_rows(const at::Tensor& t, std::int64_t n) {
  return t.device().is_cpu() && t.scalar_type() == at::kFloat && t.dim() == 1 && t.size(0) == n && t.is_contiguous();
}

}  // namespace seedrl::sac
