// A top-down picture of a Google Research Football state, drawn from the
// positions alone, since the engine's 3D view needs a display. The pitch
// keeps the engine's proportions: gfootball divides engine metres by 54.4
// along x and by 83.6 along y, so the picture scales the axes differently
// to undo that and show a pitch of about 109 m by 70 m.
//
// An environment point (x, y), y growing down the screen, covers pixel
//   column = floor(kCentreCol + kPixelsPerX * x),
//   row    = floor(kCentreRow + kPixelsPerY * y),
// so the goal lines x = -1, 1 fall on columns 32 and 544 and the touchlines
// y = -0.42, 0.42 on rows 30 and 353.
#pragma once

#include <array>
#include <cstdint>

#include "seedrl/env/football/game_state.h"
#include "seedrl/env/render.h"

namespace seedrl::football_draw {

constexpr int kWidth = 576, kHeight = 384;
constexpr double kCentreCol = 288, kCentreRow = 192;
constexpr double kPixelsPerX = 256, kPixelsPerY = 384;
// The engine steps ten times a simulated second.
constexpr double kFps = 10;

using Colour = std::array<std::uint8_t, 3>;
constexpr Colour kLeftColour{250, 210, 40}, kRightColour{40, 90, 220};
constexpr Colour kBallColour{255, 255, 255}, kControlledColour{0, 0, 0};
// Players have this radius in pixels; the controlled one's ring covers the
// pixels whose distance from its centre lies in (kRingInner, kRingOuter].
constexpr int kPlayerRadius = 5, kRingInner = 7, kRingOuter = 9;

// Pitch, goals, players (red-carded ones left out), the ball on top, a ring
// round the player the left agent controls, the score as tally marks above
// the pitch and the time played as a bar below it. Positions off the picture
// or not finite are skipped. Allocates only when `out` is smaller.
void pitch(const football::GameState& s, RgbImage& out);

}  // namespace seedrl::football_draw
