#include "seedrl/env/atari/area_resize.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>

namespace seedrl::atari {

AreaResize::Axis AreaResize::make_axis(int in, int out) {
  // Output pixel o spans [o*a, (o+1)*a) and input pixel i spans [i*b, (i+1)*b)
  // in a unit that makes both integers: a and b are the input and output
  // sizes reduced by their gcd, so every overlap is an integer.
  const int g = std::gcd(in, out);
  const int a = in / g, b = out / g;
  Axis axis;
  axis.total = static_cast<std::uint32_t>(a);
  axis.taps = (a + b - 1) / b + 1;  // an interval of length a meets at most this many of length b
  axis.first.resize(out);
  axis.count.resize(out);
  axis.weights.assign(static_cast<std::size_t>(out) * axis.taps, 0);
  for (int o = 0; o < out; ++o) {
    const long lo = static_cast<long>(o) * a, hi = lo + a;
    const int i0 = static_cast<int>(lo / b);
    axis.first[o] = i0;
    for (int t = 0; t < axis.taps && i0 + t < in; ++t) {
      const int i = i0 + t;
      const long overlap = std::min(hi, static_cast<long>(i + 1) * b) - std::max(lo, static_cast<long>(i) * b);
      if (overlap <= 0) break;
      axis.weights[static_cast<std::size_t>(o) * axis.taps + t] = static_cast<std::uint32_t>(overlap);
      axis.count[o] = t + 1;
    }
  }
  return axis;
}

AreaResize::AreaResize(int in_h, int in_w, int out_h, int out_w)
    : in_h_(in_h), in_w_(in_w), out_h_(out_h), out_w_(out_w) {
  if (in_h <= 0 || in_w <= 0 || out_h <= 0 || out_w <= 0 || out_h > in_h || out_w > in_w)
    throw std::invalid_argument("area resize from " + std::to_string(in_h) + "x" + std::to_string(in_w) + " to " +
                                std::to_string(out_h) + "x" + std::to_string(out_w) + ": only downsampling");
  x_ = make_axis(in_w, out_w);
  y_ = make_axis(in_h, out_h);
  // floor(n / total) as (n * magic) >> shift for every n up to
  // 256 * total: with magic = floor(2^shift / total) + 1 the error
  // n * (magic * total - 2^shift) / 2^shift stays below one for
  // 2^shift > 2^9 * total^2 (Granlund and Montgomery).
  const std::uint64_t total = static_cast<std::uint64_t>(x_.total) * y_.total;
  int bits = 0;
  while ((std::uint64_t{1} << bits) < total) ++bits;
  shift_ = 10 + 2 * bits;
  if (shift_ > 54) throw std::invalid_argument("area resize: ratio too fine for exact integer weights");
  magic_ = (std::uint64_t{1} << shift_) / total + 1;
  rows_.resize(static_cast<std::size_t>(y_.taps) * in_w);
  row_of_.assign(y_.taps, -1);
  src_.assign(y_.taps, nullptr);
  zeros_.assign(in_w, 0);
  // Zero-weight taps may read past the row.
  acc_.assign(static_cast<std::size_t>(in_w) + x_.taps, 0);
  acc16_.assign(static_cast<std::size_t>(in_w) + x_.taps, 0);
}

namespace {

// Across one summed-down row, then the division by the total weight (a
// multiply and shift that is exact for every sum here), rounding halves up.
// Every output has `taps` weights (zero past its own), and acc is padded so
// that all of them can be read.
template <int kTaps, typename Acc>
void across(const Acc* __restrict acc, const std::uint32_t* __restrict weights, const int* __restrict first, int out_w,
            std::uint32_t half, std::uint64_t magic, int shift, std::uint8_t* __restrict dst, int stride,
            int taps = kTaps) {
  for (int j = 0; j < out_w; ++j) {
    const std::uint32_t* w = weights + static_cast<std::size_t>(j) * (kTaps > 0 ? kTaps : taps);
    const Acc* a = acc + first[j];
    std::uint64_t sum = half;
    for (int t = 0; t < (kTaps > 0 ? kTaps : taps); ++t) sum += w[t] * a[t];
    dst[static_cast<std::size_t>(j) * stride] = static_cast<std::uint8_t>((sum * magic) >> shift);
  }
}

// Down: acc[x] = the weighted sum of the taps' rows at x, in one pass, in
// the narrowest type that holds it (16 bits: twice the lanes per vector).
template <int kTaps, typename Acc>
void down(const std::uint8_t* const* rows, const std::uint32_t* w, int in_w, Acc* __restrict acc, int taps = kTaps) {
  if constexpr (kTaps > 0) {
    const std::uint8_t* __restrict r[kTaps];
    Acc wt[kTaps];
    for (int t = 0; t < kTaps; ++t) r[t] = rows[t], wt[t] = static_cast<Acc>(w[t]);
    for (int x = 0; x < in_w; ++x) {
      Acc s = 0;
      for (int t = 0; t < kTaps; ++t) s = static_cast<Acc>(s + wt[t] * r[t][x]);
      acc[x] = s;
    }
  } else {
    std::fill(acc, acc + in_w, Acc{0});
    for (int t = 0; t < taps; ++t) {
      const std::uint8_t* __restrict r = rows[t];
      const Acc wt = static_cast<Acc>(w[t]);
      for (int x = 0; x < in_w; ++x) acc[x] = static_cast<Acc>(acc[x] + wt * r[x]);
    }
  }
}

}  // namespace

template <typename Row>
void AreaResize::run(Row&& row, std::uint8_t* out, int out_stride) {
  // A column's sum down is at most 255 times the vertical total.
  if (y_.total * 255 <= 0xFFFF)
    run_as(acc16_.data(), row, out, out_stride);
  else
    run_as(acc_.data(), row, out, out_stride);
}

template <typename Acc, typename Row>
void AreaResize::run_as(Acc* __restrict acc, Row& row, std::uint8_t* out, int out_stride) {
  // Locals, restrict-qualified: through uint8_t pointers the compiler would
  // otherwise assume any store may change the members and every buffer, and
  // neither vectorize nor hoist.
  const int in_w = in_w_, out_w = out_w_, y_taps = y_.taps, x_taps = x_.taps;
  const std::uint64_t magic = magic_;
  const int shift = shift_;
  const std::uint32_t half = (x_.total * y_.total) / 2;
  std::uint8_t* const rows = rows_.data();
  const std::uint32_t* const wys = y_.weights.data();
  const std::uint32_t* const wxs = x_.weights.data();
  const int* const x_first = x_.first.data();
  std::fill(row_of_.begin(), row_of_.end(), -1);
  for (int o = 0; o < out_h_; ++o) {
    // Down: the output row's input rows, each made once (consecutive output
    // rows share one) and kept in the slot of its index modulo the taps.
    const std::uint32_t* wy = wys + static_cast<std::size_t>(o) * y_taps;
    for (int t = 0; t < y_taps; ++t) {
      const int y = y_.first[o] + t;
      if (t >= y_.count[o]) {
        src_[t] = zeros_.data();  // weight 0
        continue;
      }
      const int slot = y % y_taps;
      std::uint8_t* src_row = rows + static_cast<std::size_t>(slot) * in_w;
      if (row_of_[slot] != y) {
        row(y, src_row);
        row_of_[slot] = y;
      }
      src_[t] = src_row;
    }
    switch (y_taps) {  // a fixed count unrolls (Atari's 210 to 84: 4)
      case 2:
        down<2>(src_.data(), wy, in_w, acc);
        break;
      case 3:
        down<3>(src_.data(), wy, in_w, acc);
        break;
      case 4:
        down<4>(src_.data(), wy, in_w, acc);
        break;
      default:
        down<0>(src_.data(), wy, in_w, acc, y_taps);
        break;
    }
    std::uint8_t* dst = out + static_cast<std::size_t>(o) * out_w * out_stride;
    switch (x_taps) {  // a fixed count unrolls (Atari's 160 to 84: 3)
      case 2:
        across<2>(acc, wxs, x_first, out_w, half, magic, shift, dst, out_stride);
        break;
      case 3:
        across<3>(acc, wxs, x_first, out_w, half, magic, shift, dst, out_stride);
        break;
      case 4:
        across<4>(acc, wxs, x_first, out_w, half, magic, shift, dst, out_stride);
        break;
      default:
        across<0>(acc, wxs, x_first, out_w, half, magic, shift, dst, out_stride, x_taps);
        break;
    }
  }
}

void AreaResize::operator()(const std::uint8_t* in, std::uint8_t* out, int out_stride) {
  const std::size_t w = in_w_;
  run([&](int y, std::uint8_t* dst) { std::memcpy(dst, in + y * w, w); }, out, out_stride);
}

void AreaResize::operator()(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, int out_stride) {
  const std::size_t w = in_w_;
  run(
      [&](int y, std::uint8_t* dst) {
        const std::uint8_t *ra = a + y * w, *rb = b + y * w;
        for (std::size_t x = 0; x < w; ++x) dst[x] = std::max(ra[x], rb[x]);
      },
      out, out_stride);
}

void AreaResize::palette(const std::uint8_t* a, const std::uint8_t* b, const std::uint8_t* lut, std::uint8_t* out,
                         int out_stride) {
  const std::size_t w = in_w_;
  run(
      [&](int y, std::uint8_t* dst) {
        const std::uint8_t* ra = a + y * w;
        const std::uint8_t* rb = b != nullptr ? b + y * w : ra;
        std::size_t x = 0;
        // Eight pixels at a time: where both frames hold the same indices
        // (most of a screen), one look-up each, or one for all eight when
        // they are one colour.
        for (; x + 8 <= w; x += 8) {
          std::uint64_t va, vb;
          std::memcpy(&va, ra + x, 8);
          std::memcpy(&vb, rb + x, 8);
          if (va == vb) {
            if (va == (va & 0xFF) * 0x0101010101010101ull) {
              std::memset(dst + x, lut[va & 0xFF], 8);
            } else {
              for (std::size_t k = x; k < x + 8; ++k) dst[k] = lut[ra[k]];
            }
          } else {
            for (std::size_t k = x; k < x + 8; ++k) dst[k] = std::max(lut[ra[k]], lut[rb[k]]);
          }
        }
        for (; x < w; ++x) dst[x] = std::max(lut[ra[x]], lut[rb[x]]);
      },
      out, out_stride);
}

}  // namespace seedrl::atari
