// Shared by the image torsos: checks that an observation is an [H, W, C]
// image, turns a batch of HWC frames into NCHW, and runs layers in bfloat16
// for --precision bf16.
#pragma once

#include <stdexcept>
#include <string>

#include <torch/nn/functional/conv.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>
#include <torch/types.h>

#include "seedrl/env/spec.h"

namespace seedrl {

inline void require_image(const ArraySpec& observation, const std::string& torso, std::int64_t min_side) {
  const auto& s = observation.shape;
  if (s.size() != 3 || s[0] < min_side || s[1] < min_side || s[2] < 1)
    throw std::invalid_argument("--model: torso '" + torso +
                                "' needs an image observation [H,W,C] with H,W >= " + std::to_string(min_side) +
                                ", got " + observation.to_string() + " (use --model mlp or auto)");
}

// --precision: the dtype an image torso computes in.
inline torch::ScalarType torso_dtype(const std::string& precision) {
  if (precision == "fp32") return torch::kFloat32;
  if (precision == "bf16") return torch::kBFloat16;
  throw std::invalid_argument("--precision: unknown precision '" + precision + "' (valid: fp32, bf16)");
}

// The last conv's output, made NCHW-contiguous for the ReLU and the flatten
// that follow it. Flattening a channels-last tensor copies it anyway; copied
// here, before the ReLU, the ReLU's backward sees its gradient in the layout
// of its output (a channels-last output with the NCHW gradient flatten's
// backward hands back takes a slow, strided path), and flatten is a view.
inline torch::Tensor flatten_after_conv(const torch::Tensor& x) { return x.contiguous(); }

// [N, H, W, C] of any dtype -> [N, C, H, W] in `dtype`, times `scale`, kept
// in channels-last memory (the HWC layout the frames arrive in): no
// transposing copy, and oneDNN's channels-last convolutions are much faster
// on CPU than the NCHW path for these small images.
// The scale is applied in place when the conversion made a new tensor: a
// learner batch of Atari frames in float32 is hundreds of MB, and each buffer
// of that size is fresh pages from the kernel.
inline torch::Tensor hwc_to_nchw(const torch::Tensor& x, double scale, torch::ScalarType dtype = torch::kFloat32) {
  auto y = x.permute({0, 3, 1, 2}).to(dtype);
  if (scale != 1.0) {
    if (x.scalar_type() != dtype)
      y.mul_(scale);
    else
      y = y * scale;
  }
  return y.contiguous(torch::MemoryFormat::ChannelsLast);
}

// A layer applied in its input's dtype, as autocast applies it: float32
// weights are cast to a bfloat16 input's dtype (a differentiable copy, so
// their gradients arrive in float32); a float32 input runs the layer as is.
// (Holders by value: a holder's const operator-> gives a const module.)
inline torch::Tensor conv2d_in_input_dtype(torch::nn::Conv2d conv, const torch::Tensor& x) {
  if (x.scalar_type() == conv->weight.scalar_type()) return conv->forward(x);
  namespace F = torch::nn::functional;
  const auto& o = conv->options;
  const auto dtype = x.scalar_type();
  auto options =
      F::Conv2dFuncOptions().stride(o.stride()).padding(o.padding()).dilation(o.dilation()).groups(o.groups());
  if (conv->bias.defined()) options.bias(conv->bias.to(dtype));
  return F::conv2d(x, conv->weight.to(dtype), options);
}
inline torch::Tensor linear_in_input_dtype(torch::nn::Linear fc, const torch::Tensor& x) {
  if (x.scalar_type() == fc->weight.scalar_type()) return fc->forward(x);
  const auto dtype = x.scalar_type();
  return torch::linear(x, fc->weight.to(dtype), fc->bias.defined() ? fc->bias.to(dtype) : torch::Tensor());
}

}  // namespace seedrl
