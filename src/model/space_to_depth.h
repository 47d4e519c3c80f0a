// A first convolution of kernel 2s and stride s (no padding) over uint8
// frames, computed as a 2x2 stride-1 convolution over s x s pixel blocks
// ("space to depth"): the same function with the weights rearranged, so
// checkpoints and exports are unchanged. The 8x8 stride-4 layer of the Atari
// torsos has only 4 input channels, which oneDNN's kernels use badly (on an
// AMX CPU its bfloat16 weight gradient was most of a Pong learner update); as
// blocks the layer has 64 input channels and runs several times faster. The
// frames' 1/255 scale is folded into the weights instead of a pass over the
// frames. Figures: bench/RESULTS.md, "The first convolution as pixel blocks".
#pragma once

#include <cstdint>

#include <torch/nn/modules/conv.h>
#include <torch/types.h>

namespace seedrl {

// Whether the blocks form computes an unpadded, undilated convolution of
// that kernel and stride over [N, H, W, C] frames of that height and width
// in `dtype`: on a CPU (faster there in bfloat16 and float32, as fast with
// AVX2 only); a GPU keeps cuDNN's direct form, which was not measured.
bool space_to_depth_applies(std::int64_t kernel, std::int64_t stride, std::int64_t height, std::int64_t width,
                            torch::ScalarType dtype, torch::Device device);

// [N, H, W, C] uint8 frames -> [N, s*s*C, H/s, W/s] in `dtype`, channels-last
// memory; channel (dy*s + dx)*C + c of block (Y, X) is pixel (Y*s + dy,
// X*s + dx)'s channel c. One pass over the frames, unscaled.
torch::Tensor frames_to_blocks(const torch::Tensor& frames, std::int64_t s, torch::ScalarType dtype);

// conv(frames * scale) computed over frames_to_blocks(frames, stride), in
// `dtype` (the weights cast to it, differentiably).
torch::Tensor conv2d_over_blocks(torch::nn::Conv2d conv, const torch::Tensor& frames, double scale,
                                 torch::ScalarType dtype);

}  // namespace seedrl
