// The element types an observation can have. Plain data, no torch: the
// environments declare their specs with it; util/torch_dtype.h maps it to
// LibTorch's for the stages that hold tensors.
#pragma once

#include <cstdint>

namespace seedrl {

enum class DType : std::uint8_t { kFloat32, kUInt8 };

}  // namespace seedrl
