// An observation's element type as LibTorch's scalar type: the one mapping
// every stage that allocates observation tensors (batcher, trajectory store,
// replay, policies, probes) uses.
#pragma once

#include <c10/core/ScalarType.h>

#include "seedrl/util/dtype.h"

namespace seedrl {

inline c10::ScalarType to_torch_dtype(DType d) { return d == DType::kUInt8 ? c10::kByte : c10::kFloat; }

}  // namespace seedrl
