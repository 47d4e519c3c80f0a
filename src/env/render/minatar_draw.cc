#include "seedrl/env/render/minatar_draw.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace seedrl::minatar_draw {

std::array<std::uint8_t, 3> channel_colour(int k, int channels) {
  // matplotlib's Colormap.__call__ picks entry floor(v * N) of N = 256, and
  // entry i holds the map at i / (N - 1).
  const double bin = static_cast<double>(k + 1) / (channels + 1);
  const int entry = std::min(255, static_cast<int>(bin * 256));
  const double x = entry / 255.0;
  const double a = x * (1 - x) / 2, phi = 2 * 3.14159265358979323846 * (0.5 / 3 + -1.5 * x);
  const double rgb[3] = {x + a * (-0.14861 * std::cos(phi) + 1.78277 * std::sin(phi)),
                         x + a * (-0.29227 * std::cos(phi) - 0.90649 * std::sin(phi)),
                         x + a * (1.97294 * std::cos(phi))};
  std::array<std::uint8_t, 3> out;
  for (int i = 0; i < 3; ++i) out[i] = static_cast<std::uint8_t>(std::lround(255 * std::clamp(rgb[i], 0.0, 1.0)));
  return out;
}

void draw(const std::uint8_t* obs, int grid, int channels, RgbImage& out) {
  out.reset(grid * kCellPixels, grid * kCellPixels, 0, 0, 0);
  for (int y = 0; y < grid; ++y)
    for (int x = 0; x < grid; ++x) {
      int top = -1;
      for (int c = 0; c < channels; ++c)
        if (obs[(y * grid + x) * channels + c]) top = c;
      if (top < 0) continue;
      const auto colour = channel_colour(top, channels);
      for (int dy = 0; dy < kCellPixels; ++dy)
        for (int dx = 0; dx < kCellPixels; ++dx)
          std::memcpy(out.at(y * kCellPixels + dy, x * kCellPixels + dx), colour.data(), 3);
    }
}

}  // namespace seedrl::minatar_draw
