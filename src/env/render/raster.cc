#include "seedrl/env/render/raster.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace seedrl::raster {

namespace {

void put(RgbImage& img, int x, int y, Colour c) {
  if (x < 0 || y < 0 || x >= img.width || y >= img.height) return;
  std::memcpy(img.at(y, x), c.data(), 3);
}

}  // namespace

void fill_polygon(RgbImage& img, std::span<const Point> poly, Colour c) {
  if (poly.size() < 3) return;
  double lo = poly[0].y, hi = poly[0].y;
  for (const Point& p : poly) lo = std::min(lo, p.y), hi = std::max(hi, p.y);
  const int y0 = std::max(0, static_cast<int>(std::floor(lo))),
            y1 = std::min(img.height - 1, static_cast<int>(std::ceil(hi)));
  double xs[16];
  for (int y = y0; y <= y1; ++y) {
    const double sy = y + 0.5;
    int n = 0;
    for (std::size_t i = 0; i < poly.size() && n < 16; ++i) {
      const Point& a = poly[i];
      const Point& b = poly[(i + 1) % poly.size()];
      if ((a.y <= sy) != (b.y <= sy)) xs[n++] = a.x + (sy - a.y) * (b.x - a.x) / (b.y - a.y);
    }
    std::sort(xs, xs + n);
    for (int k = 0; k + 1 < n; k += 2) {
      // Pixels whose centre x + 0.5 lies in [xs[k], xs[k+1]).
      const int from = static_cast<int>(std::ceil(xs[k] - 0.5)), to = static_cast<int>(std::ceil(xs[k + 1] - 0.5)) - 1;
      for (int x = std::max(0, from); x <= std::min(img.width - 1, to); ++x) put(img, x, y, c);
    }
  }
}

void fill_circle(RgbImage& img, int cx, int cy, int r, Colour c) {
  for (int dy = -r; dy <= r; ++dy)
    for (int dx = -r; dx <= r; ++dx)
      if (dx * dx + dy * dy <= r * r) put(img, cx + dx, cy + dy, c);
}

void line(RgbImage& img, int x0, int y0, int x1, int y1, Colour c) {
  const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
  const int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
  int err = dx + dy;
  for (;;) {
    put(img, x0, y0, c);
    if (x0 == x1 && y0 == y1) return;
    const int e2 = 2 * err;
    if (e2 >= dy) err += dy, x0 += sx;
    if (e2 <= dx) err += dx, y0 += sy;
  }
}

Point rotate(Point p, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  return {p.x * c - p.y * s, p.x * s + p.y * c};
}

void flip_rows(RgbImage& img) {
  const std::size_t row = static_cast<std::size_t>(img.width) * 3;
  for (int y = 0; y < img.height / 2; ++y)
    std::swap_ranges(img.rgb.begin() + y * row, img.rgb.begin() + (y + 1) * row,
                     img.rgb.begin() + (img.height - 1 - y) * row);
}

}  // namespace seedrl::raster
