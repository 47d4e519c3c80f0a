// The key of a parameter's entry in torch::optim::Optimizer::state(): LibTorch
// 1.x keys it by the TensorImpl's address printed as a string, 2.x by the
// address itself. Shared by the device optimizer step and the checkpoint's
// optimizer state, which must both build with either version.
#pragma once

#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

#include <torch/optim/optimizer.h>

namespace seedrl {

using OptimizerStateMap = std::remove_reference_t<decltype(std::declval<torch::optim::Optimizer&>().state())>;
using OptimizerStateKey = typename OptimizerStateMap::key_type;

// A template, so that the branch for the other LibTorch version is discarded.
template <class Key = OptimizerStateKey>
Key optimizer_state_key(const at::Tensor& p) {
  if constexpr (std::is_same_v<Key, std::string>) {
    std::ostringstream s;
    s << p.unsafeGetTensorImpl();
    return s.str();
  } else {
    return static_cast<Key>(p.unsafeGetTensorImpl());
  }
}

}  // namespace seedrl
