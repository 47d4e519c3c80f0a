// The one mapping from an observation's element type to LibTorch's: every
// buffer the batcher, trajectory store and replay allocate from a spec must
// hold exactly the bytes the actors copy in (ArraySpec::bytes()).
#include <catch2/catch.hpp>

#include <torch/torch.h>

#include "seedrl/env/spec.h"
#include "seedrl/util/torch_dtype.h"

using namespace seedrl;

TEST_CASE("to_torch_dtype: a tensor of a spec's shape holds exactly the spec's bytes", "[torch_dtype]") {
  for (const DType d : {DType::kFloat32, DType::kUInt8}) {
    CAPTURE(dtype_name(d));
    const ArraySpec spec{{3, 5, 7}, d};
    const torch::Tensor t = torch::empty(spec.shape, to_torch_dtype(d));
    CHECK(t.element_size() == static_cast<std::int64_t>(dtype_size(d)));
    CHECK(t.nbytes() == spec.bytes());
  }
}

TEST_CASE("to_torch_dtype: pixels are unsigned bytes, vectors float32", "[torch_dtype]") {
  // A signed char would turn pixel 200 into -56 on its way to the network.
  CHECK(torch::full({1}, 200, torch::dtype(to_torch_dtype(DType::kUInt8))).item<int>() == 200);
  CHECK(to_torch_dtype(DType::kUInt8) == torch::kUInt8);
  CHECK(to_torch_dtype(DType::kFloat32) == torch::kFloat32);
}
