#include "space_to_depth.h"

#include <cstring>

#include <ATen/Parallel.h>
#include <torch/nn/functional/conv.h>

namespace seedrl {
namespace {

// Every integer up to 255 is exact in bfloat16, so a byte's bfloat16 bits are
// the upper half of its float's: no rounding, and the loop below vectorises.
inline std::uint16_t bfloat16_bits(std::uint8_t v) {
  const float f = v;
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return static_cast<std::uint16_t>(bits >> 16);
}
inline float float_value(std::uint8_t v) { return v; }

// Each of a frame row's s pixels x C channels of one block row is contiguous
// in the frame and in the block: copied as one run.
template <typename T, T (*convert)(std::uint8_t)>
void copy_blocks(const std::uint8_t* __restrict in, T* __restrict out, std::int64_t n, std::int64_t h, std::int64_t w,
                 std::int64_t c, std::int64_t s) {
  const std::int64_t bh = h / s, bw = w / s, run = s * c;
  at::parallel_for(0, n * bh, 16, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t row = begin; row < end; ++row) {  // row = frame * bh + Y
      const std::int64_t frame = row / bh, y = row % bh;
      T* __restrict dst = out + row * bw * s * run;
      for (std::int64_t x = 0; x < bw; ++x)
        for (std::int64_t dy = 0; dy < s; ++dy) {
          const std::uint8_t* __restrict src = in + ((frame * h + y * s + dy) * w + x * s) * c;
          for (std::int64_t k = 0; k < run; ++k) dst[k] = convert(src[k]);
          dst += run;
        }
    }
  });
}

// [N, H, W, C] uint8 frames -> their blocks in `dtype`, channels-last
// memory, unscaled: one pass over the frames.
torch::Tensor frames_to_blocks(const torch::Tensor& frames, std::int64_t s, torch::ScalarType dtype) {
  const torch::Tensor x = frames.contiguous();
  const std::int64_t n = x.size(0), h = x.size(1), w = x.size(2), c = x.size(3);
  torch::Tensor out = torch::empty({n, h / s, w / s, s * s * c}, x.options().dtype(dtype));
  if (dtype == torch::kBFloat16)
    copy_blocks<std::uint16_t, bfloat16_bits>(
        x.data_ptr<std::uint8_t>(), reinterpret_cast<std::uint16_t*>(out.data_ptr<c10::BFloat16>()), n, h, w, c, s);
  else  // float32
    copy_blocks<float, float_value>(x.data_ptr<std::uint8_t>(), out.data_ptr<float>(), n, h, w, c, s);
  return out.permute({0, 3, 1, 2});
}

}  // namespace

bool conv_over_blocks_applies(const torch::nn::Conv2d& conv, const torch::Tensor& frames, torch::ScalarType dtype) {
  const auto& k = *conv->options.kernel_size();
  const auto& st = *conv->options.stride();
  const std::int64_t s = st[0];
  return frames.dim() == 4 && frames.scalar_type() == torch::kUInt8 && frames.device().is_cpu() &&
         (dtype == torch::kBFloat16 || dtype == torch::kFloat32) && s > 1 && st[1] == s && k[0] == 2 * s &&
         k[1] == 2 * s && frames.size(1) % s == 0 && frames.size(2) % s == 0;
}

torch::Tensor conv2d_over_blocks(torch::nn::Conv2d conv, const torch::Tensor& frames, double scale,
                                 torch::ScalarType dtype) {
  const std::int64_t s = conv->options.stride()->at(0);
  const torch::Tensor& w = conv->weight;  // [O, C, 2s, 2s]
  const std::int64_t o = w.size(0), c = w.size(1);
  // [O, C, ky, dy, kx, dx] -> [O, dy, dx, C, ky, kx]: block channel (dy*s + dx)*C + c.
  const torch::Tensor blocks_weight =
      (w * scale).to(dtype).view({o, c, 2, s, 2, s}).permute({0, 3, 5, 1, 2, 4}).reshape({o, s * s * c, 2, 2});
  namespace F = torch::nn::functional;
  auto options = F::Conv2dFuncOptions();
  if (conv->bias.defined()) options.bias(conv->bias.to(dtype));
  return F::conv2d(frames_to_blocks(frames, s, dtype), blocks_weight, options);
}

}  // namespace seedrl
