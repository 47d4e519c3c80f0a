// MinAtar's pictures as the reference GUI colours them (minatar/gui.py and
// environment.py's display_state): a cell takes colour k+1 of
// [black] + seaborn.color_palette("cubehelix", C), where k is the highest
// channel set in it; an empty cell is black. seaborn samples matplotlib's
// "cubehelix" map (Green 2011: gamma 1, start 0.5, rotations -1.5, hue 1) at
// the centres of C+1 equal steps, through its 256-entry look-up table.
#pragma once

#include <array>
#include <cstdint>

#include "seedrl/env/render.h"

namespace seedrl::minatar_draw {

constexpr int kCellPixels = 10;
// MinAtar has no frame rate; ten steps a second is watchable.
constexpr double kFps = 10;

// Colour k (0..channels-1) of the palette, each component round(255 * v).
std::array<std::uint8_t, 3> channel_colour(int k, int channels);
// The 10x10xC observation (values 0/1, [y][x][c]) at kCellPixels a cell.
void draw(const std::uint8_t* obs, int grid, int channels, RgbImage& out);

}  // namespace seedrl::minatar_draw
