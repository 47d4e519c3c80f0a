// How far two networks' parameters are apart: the largest absolute
// difference of any parameter tensor, relative to that tensor's largest
// magnitude in `b` (the reference).
#pragma once

#include <algorithm>

#include <torch/torch.h>
#include <catch2/catch.hpp>

namespace seedrl::test {

inline double max_relative_difference(const torch::nn::Module& a, const torch::nn::Module& b) {
  double worst = 0;
  auto pa = a.parameters(), pb = b.parameters();
  REQUIRE(pa.size() == pb.size());
  for (std::size_t i = 0; i < pa.size(); ++i) {
    const double scale = pb[i].abs().max().item<double>() + 1e-6;
    worst = std::max(worst, (pa[i] - pb[i]).abs().max().item<double>() / scale);
  }
  return worst;
}

}  // namespace seedrl::test
