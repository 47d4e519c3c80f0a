// Downsamples a uint8 grayscale image by area averaging, as OpenCV's
// INTER_AREA does: each output pixel is the mean of the input pixels it
// covers, each weighted by the fraction of it that lies inside, so ratios that
// are not integers (Atari's 210x160 to 84x84) are handled exactly. The
// weights are integers (areas in units of 1/out of an input pixel, reduced by
// the common divisor), so the result is the exact mean rounded to nearest,
// halves up. Separable: each output row sums its input rows (whole rows,
// vectorized, in 16 bits where they fit), then the row's taps across; the
// division is a multiply and shift. Everything it needs is allocated at
// construction.
#pragma once

#include <cstdint>
#include <vector>

namespace seedrl::atari {

class AreaResize {
 public:
  // Downsampling only: out_h <= in_h and out_w <= in_w, all positive.
  AreaResize(int in_h, int in_w, int out_h, int out_w);

  // `in`: in_h x in_w row-major; `out`: out_h x out_w, with `out_stride`
  // bytes between horizontally adjacent output pixels (the channel count of
  // an interleaved destination). Allocate nothing.
  void operator()(const std::uint8_t* in, std::uint8_t* out, int out_stride = 1);
  // The same for the pixel-wise maximum of two images.
  void operator()(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, int out_stride = 1);
  // Palette images (Atari screens): a pixel's value is lut[index]; with `b`,
  // max(lut[a], lut[b]) (Atari's max-pool of two frames), without a pass of
  // its own and with one look-up where the two frames agree.
  void palette(const std::uint8_t* a, const std::uint8_t* b, const std::uint8_t* lut, std::uint8_t* out,
               int out_stride = 1);

  int in_h() const { return in_h_; }
  int in_w() const { return in_w_; }
  int out_h() const { return out_h_; }
  int out_w() const { return out_w_; }

 private:
  // One axis: for each output index, the first input index it touches and
  // `taps` integer weights (zero-padded), summing to `total`.
  struct Axis {
    int taps = 0;
    std::uint32_t total = 0;
    std::vector<int> first, count;       // per output: first input index, taps in range
    std::vector<std::uint32_t> weights;  // out x taps
  };
  static Axis make_axis(int in, int out);
  // The shared loop; `row(y, dst)` writes input row y's in_w values to dst.
  template <typename Row>
  void run(Row&& row, std::uint8_t* out, int out_stride);
  template <typename Acc, typename Row>
  void run_as(Acc* acc, Row& row, std::uint8_t* out, int out_stride);

  int in_h_, in_w_, out_h_, out_w_;
  Axis x_, y_;
  std::uint64_t magic_ = 0;  // division by the total weight: (n * magic_) >> shift_
  int shift_ = 0;
  std::vector<std::uint8_t> rows_;        // taps x in_w: the input rows of one output row
  std::vector<int> row_of_;               // which input row each of rows_ holds (-1: none)
  std::vector<const std::uint8_t*> src_;  // taps: the rows of the output row being made
  std::vector<std::uint8_t> zeros_;       // in_w: the row of a zero-weight tap
  std::vector<std::uint32_t> acc_;        // in_w (+ taps): one output row summed down
  std::vector<std::uint16_t> acc16_;      // the same where 16 bits hold it
};

}  // namespace seedrl::atari
