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

// Whether conv2d_over_blocks computes `conv` (unpadded, undilated, as the
// strided torsos make them) over these [N, H, W, C] frames in `dtype`: uint8
// frames on a CPU whose sides the stride divides, a square kernel of twice
// the stride, bfloat16 or float32 (faster there in both, as fast with AVX2
// only). A GPU keeps cuDNN's direct form, which was not measured.
bool conv_over_blocks_applies(const torch::nn::Conv2d& conv, const torch::Tensor& frames, torch::ScalarType dtype);

// conv(frames * scale) in `dtype` (the weights cast to it, differentiably),
// computed over the frames' s x s blocks: [N, s*s*C, H/s, W/s], channel
// (dy*s + dx)*C + c of block (Y, X) being pixel (Y*s + dy, X*s + dx)'s c.
torch::Tensor conv2d_over_blocks(torch::nn::Conv2d conv, const torch::Tensor& frames, double scale,
                                 torch::ScalarType dtype);

// The two halves of conv2d_over_blocks, for a caller that makes the blocks
// ahead of the convolution (once for several passes, or as it gathers a
// minibatch): the s x s blocks in `dtype` (channels-last memory, unscaled) of
// frames[index] (index: int64 [M] into the first dimension; undefined: all
// frames), in one pass over them; and the convolution over such blocks.
torch::Tensor frames_to_blocks(const torch::Tensor& frames, const torch::Tensor& index, std::int64_t s,
                               torch::ScalarType dtype);
torch::Tensor conv2d_on_blocks(torch::nn::Conv2d conv, const torch::Tensor& blocks, double scale,
                               torch::ScalarType dtype);

}  // namespace seedrl
