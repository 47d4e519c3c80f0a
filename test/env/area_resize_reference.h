// An independent double-precision area resize for the tests: each output
// pixel is the mean of the input pixels it covers, weighted by the length of
// the overlap of their real intervals on each axis.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace seedrl::test {

inline std::vector<double> area_resize_reference(const std::vector<double>& in, int in_h, int in_w, int out_h,
                                                 int out_w) {
  const double sy = static_cast<double>(in_h) / out_h, sx = static_cast<double>(in_w) / out_w;
  std::vector<double> out(static_cast<std::size_t>(out_h) * out_w);
  for (int i = 0; i < out_h; ++i) {
    const double y0 = i * sy, y1 = (i + 1) * sy;
    for (int j = 0; j < out_w; ++j) {
      const double x0 = j * sx, x1 = (j + 1) * sx;
      double sum = 0;
      for (int y = static_cast<int>(y0); y < in_h && y < y1; ++y) {
        const double wy = std::min<double>(y + 1, y1) - std::max<double>(y, y0);
        for (int x = static_cast<int>(x0); x < in_w && x < x1; ++x) {
          const double wx = std::min<double>(x + 1, x1) - std::max<double>(x, x0);
          sum += wy * wx * in[static_cast<std::size_t>(y) * in_w + x];
        }
      }
      out[static_cast<std::size_t>(i) * out_w + j] = sum / (sy * sx);
    }
  }
  return out;
}

}  // namespace seedrl::test
