// A tiny rasteriser for the classic-control pictures: filled polygons and
// circles and 1-pixel lines, no anti-aliasing. Coordinates are pygame's
// surface coordinates (x right, y down, pixel (i, j) covering [i, i+1) x
// [j, j+1)); Gymnasium draws upside down and flips the surface at the end,
// as flip_rows does.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "seedrl/env/render.h"

namespace seedrl::raster {

using Colour = std::array<std::uint8_t, 3>;
struct Point {
  double x = 0, y = 0;
};

// Every pixel whose centre lies inside the polygon (even-odd rule).
void fill_polygon(RgbImage& img, std::span<const Point> polygon, Colour c);
// pygame.gfxdraw.filled_circle: pixels (cx+dx, cy+dy) with dx^2 + dy^2 <= r^2.
void fill_circle(RgbImage& img, int cx, int cy, int r, Colour c);
// Bresenham from (x0, y0) to (x1, y1), both ends included.
void line(RgbImage& img, int x0, int y0, int x1, int y1, Colour c);
// (x, y) rotated by `angle` radians as pygame's Vector2.rotate_rad does.
Point rotate(Point p, double angle);
// Mirrors the image top to bottom (pygame.transform.flip(surf, False, True)).
void flip_rows(RgbImage& img);

}  // namespace seedrl::raster
