// Shared by the image torsos: checks that an observation is an [H, W, C]
// image and turns a batch of HWC frames into NCHW float.
#pragma once

#include <stdexcept>
#include <string>

#include <torch/types.h>

#include "seedrl/env/spec.h"

namespace seedrl {

inline void require_image(const ArraySpec& observation, const std::string& torso, std::int64_t min_side) {
  const auto& s = observation.shape;
  if (s.size() != 3 || s[0] < min_side || s[1] < min_side || s[2] < 1)
    throw std::invalid_argument("--model: torso '" + torso + "' needs an image observation [H,W,C] with H,W >= " +
                                std::to_string(min_side) + ", got " + observation.to_string() +
                                " (use --model mlp or auto)");
}

// [N, H, W, C] of any dtype -> [N, C, H, W] float32, times `scale`, kept in
// channels-last memory (the HWC layout the frames arrive in): no transposing
// copy, and oneDNN's channels-last convolutions are an order of magnitude
// faster on CPU than the NCHW path for these small images.
inline torch::Tensor hwc_to_nchw(const torch::Tensor& x, double scale) {
  auto y = x.permute({0, 3, 1, 2}).to(torch::kFloat32);
  if (scale != 1.0) y = y * scale;
  return y.contiguous(torch::MemoryFormat::ChannelsLast);
}

}  // namespace seedrl
