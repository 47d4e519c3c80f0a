#include "space_to_depth.h"

#include <cstring>

#include <ATen/Parallel.h>
#include <torch/nn/functional/conv.h>

#include "seedrl/util/vector_clones.h"

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
// in the frame and in the block: copied as one run. Rows [begin, end), row =
// output frame * (h / s) + Y; output frame f reads input frame index[f]
// (index null: f). kRun > 0 fixes the run's length at compile time (s * c
// must equal it), so its copy unrolls into a few vector instructions instead
// of a loop with a run-time trip count.
template <typename T, T (*convert)(std::uint8_t), std::int64_t kRun>
inline void copy_block_rows(const std::uint8_t* __restrict in, const std::int64_t* index, T* __restrict out,
                            std::int64_t begin, std::int64_t end, std::int64_t h, std::int64_t w, std::int64_t c,
                            std::int64_t s) {
  const std::int64_t bh = h / s, bw = w / s, run = kRun > 0 ? kRun : s * c;
  for (std::int64_t row = begin; row < end; ++row) {
    const std::int64_t frame = index != nullptr ? index[row / bh] : row / bh, y = row % bh;
    T* __restrict dst = out + row * bw * s * run;
    for (std::int64_t x = 0; x < bw; ++x)
      for (std::int64_t dy = 0; dy < s; ++dy) {
        const std::uint8_t* __restrict src = in + ((frame * h + y * s + dy) * w + x * s) * c;
        for (std::int64_t k = 0; k < run; ++k) dst[k] = convert(src[k]);
        dst += run;
      }
  }
}

// The instances, each compiled for the CPU's widest vectors (vector_clones.h):
// any run, and the Atari torsos' runs of 16 (a 4x4 block's row of 4 pixels,
// each 4 stacked frames deep).
SEEDRL_VECTOR_CLONES void copy_block_rows_bf16(const std::uint8_t* in, const std::int64_t* index, std::uint16_t* out,
                                               std::int64_t begin, std::int64_t end, std::int64_t h, std::int64_t w,
                                               std::int64_t c, std::int64_t s) {
  copy_block_rows<std::uint16_t, bfloat16_bits, 0>(in, index, out, begin, end, h, w, c, s);
}
SEEDRL_VECTOR_CLONES void copy_block_rows_bf16_16(const std::uint8_t* in, const std::int64_t* index, std::uint16_t* out,
                                                  std::int64_t begin, std::int64_t end, std::int64_t h, std::int64_t w,
                                                  std::int64_t c, std::int64_t s) {
  copy_block_rows<std::uint16_t, bfloat16_bits, 16>(in, index, out, begin, end, h, w, c, s);
}
SEEDRL_VECTOR_CLONES void copy_block_rows_float(const std::uint8_t* in, const std::int64_t* index, float* out,
                                                std::int64_t begin, std::int64_t end, std::int64_t h, std::int64_t w,
                                                std::int64_t c, std::int64_t s) {
  copy_block_rows<float, float_value, 0>(in, index, out, begin, end, h, w, c, s);
}
SEEDRL_VECTOR_CLONES void copy_block_rows_float_16(const std::uint8_t* in, const std::int64_t* index, float* out,
                                                   std::int64_t begin, std::int64_t end, std::int64_t h, std::int64_t w,
                                                   std::int64_t c, std::int64_t s) {
  copy_block_rows<float, float_value, 16>(in, index, out, begin, end, h, w, c, s);
}

}  // namespace

torch::Tensor frames_to_blocks(const torch::Tensor& frames, const torch::Tensor& index, std::int64_t s,
                               torch::ScalarType dtype) {
  const torch::Tensor x = frames.contiguous();
  const std::int64_t h = x.size(1), w = x.size(2), c = x.size(3);
  torch::Tensor rows;  // the frames to read, checked: a bad index would read outside `frames`
  if (index.defined()) {
    rows = index.to(torch::kInt64).contiguous();
    TORCH_CHECK(rows.dim() == 1, "frames_to_blocks: the index must be a vector");
    TORCH_CHECK(
        rows.numel() == 0 || (rows.min().item<std::int64_t>() >= 0 && rows.max().item<std::int64_t>() < x.size(0)),
        "frames_to_blocks: an index outside the ", x.size(0), " frames");
  }
  const std::int64_t n = index.defined() ? rows.numel() : x.size(0);
  torch::Tensor out = torch::empty({n, h / s, w / s, s * s * c}, x.options().dtype(dtype));
  const std::uint8_t* in = x.data_ptr<std::uint8_t>();
  const std::int64_t* from = index.defined() ? rows.data_ptr<std::int64_t>() : nullptr;
  const bool bf16 = dtype == torch::kBFloat16;
  auto* out_bf16 = bf16 ? reinterpret_cast<std::uint16_t*>(out.data_ptr<c10::BFloat16>()) : nullptr;
  float* out_float = bf16 ? nullptr : out.data_ptr<float>();  // float32 otherwise
  const bool run16 = s * c == 16;
  const auto copy_bf16 = run16 ? copy_block_rows_bf16_16 : copy_block_rows_bf16;
  const auto copy_float = run16 ? copy_block_rows_float_16 : copy_block_rows_float;
  at::parallel_for(0, n * (h / s), 16, [&](std::int64_t begin, std::int64_t end) {
    if (bf16)
      copy_bf16(in, from, out_bf16, begin, end, h, w, c, s);
    else
      copy_float(in, from, out_float, begin, end, h, w, c, s);
  });
  return out.permute({0, 3, 1, 2});
}

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
  return conv2d_on_blocks(conv, frames_to_blocks(frames, {}, conv->options.stride()->at(0), dtype), scale, dtype);
}

torch::Tensor conv2d_on_blocks(torch::nn::Conv2d conv, const torch::Tensor& blocks, double scale,
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
  return F::conv2d(blocks, blocks_weight, options);
}

}  // namespace seedrl
