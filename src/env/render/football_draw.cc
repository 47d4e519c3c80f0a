#include "seedrl/env/render/football_draw.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "seedrl/env/render/raster.h"

namespace seedrl::football_draw {

namespace {

// The engine's metres per environment unit along each axis.
constexpr double kMetresPerX = 54.4, kMetresPerY = 83.6;
constexpr double kHalfWidth = 0.42;

constexpr Colour kGrass{58, 128, 48}, kGrassLight{68, 142, 56}, kLine{255, 255, 255}, kNet{200, 200, 200};
constexpr Colour kOutline{25, 25, 25}, kTrack{40, 95, 35};
constexpr int kMaxTally = 40;

double fcol(double x) { return kCentreCol + kPixelsPerX * x; }
double frow(double y) { return kCentreRow + kPixelsPerY * y; }
int col(double x) { return static_cast<int>(std::floor(fcol(x))); }
int row(double y) { return static_cast<int>(std::floor(frow(y))); }
double px_x(double metres) { return metres / kMetresPerX * kPixelsPerX; }
double px_y(double metres) { return metres / kMetresPerY * kPixelsPerY; }

void put(RgbImage& img, int x, int y, Colour c) {
  if (x < 0 || y < 0 || x >= img.width || y >= img.height) return;
  std::memcpy(img.at(y, x), c.data(), 3);
}

// Columns x0..x1 and rows y0..y1, both ends included, clipped.
void fill_rect(RgbImage& img, int x0, int y0, int x1, int y1, Colour c) {
  for (int y = std::max(0, y0); y <= std::min(img.height - 1, y1); ++y)
    for (int x = std::max(0, x0); x <= std::min(img.width - 1, x1); ++x) std::memcpy(img.at(y, x), c.data(), 3);
}

void rect(RgbImage& img, int x0, int y0, int x1, int y1, Colour c) {
  raster::line(img, x0, y0, x1, y0, c);
  raster::line(img, x1, y0, x1, y1, c);
  raster::line(img, x1, y1, x0, y1, c);
  raster::line(img, x0, y1, x0, y0, c);
}

// Pixels whose distance from (cx, cy) lies in (inner, outer].
void ring(RgbImage& img, int cx, int cy, int inner, int outer, Colour c) {
  for (int dy = -outer; dy <= outer; ++dy)
    for (int dx = -outer; dx <= outer; ++dx) {
      const int d2 = dx * dx + dy * dy;
      if (d2 > inner * inner && d2 <= outer * outer) put(img, cx + dx, cy + dy, c);
    }
}

// A one-pixel ellipse outline about pixel-space (cx, cy), only on columns
// `keep` accepts (the penalty arcs stop at the penalty area).
template <typename Keep>
void ellipse(RgbImage& img, double cx, double cy, double rx, double ry, Keep keep) {
  const double r = (rx + ry) / 2;
  for (int y = static_cast<int>(std::floor(cy - ry - 1)); y <= static_cast<int>(std::ceil(cy + ry + 1)); ++y)
    for (int x = static_cast<int>(std::floor(cx - rx - 1)); x <= static_cast<int>(std::ceil(cx + rx + 1)); ++x) {
      const double u = (x + 0.5 - cx) / rx, v = (y + 0.5 - cy) / ry;
      if (std::abs(std::sqrt(u * u + v * v) - 1) * r < 0.5 && keep(x)) put(img, x, y, kLine);
    }
}

// Positions far off the picture (or NaN) are skipped rather than cast.
bool drawable(double x, double y) { return std::isfinite(x) && std::isfinite(y) && std::abs(x) < 2 && std::abs(y) < 1; }

void markings(RgbImage& img) {
  const int left = col(-1), right = col(1), top = row(-kHalfWidth), bottom = row(kHalfWidth);
  rect(img, left, top, right, bottom, kLine);
  raster::line(img, col(0), top, col(0), bottom, kLine);
  ellipse(img, fcol(0), frow(0), px_x(9.15), px_y(9.15), [](int) { return true; });
  raster::fill_circle(img, col(0), row(0), 1, kLine);
  for (const int side : {-1, 1}) {
    // Each box runs from the goal line `depth` metres into the pitch.
    const auto box = [&](double depth, double half_width) {
      const int inner = col(side * (1 - depth / kMetresPerX));
      rect(img, side < 0 ? left : inner, row(-half_width / kMetresPerY), side < 0 ? inner : right,
           row(half_width / kMetresPerY), kLine);
      return fcol(side * (1 - depth / kMetresPerX));
    };
    const double area_edge = box(16.5, 20.15);
    box(5.5, 9.15);
    const double spot = fcol(side * (1 - 11 / kMetresPerX));
    raster::fill_circle(img, static_cast<int>(std::floor(spot)), row(0), 1, kLine);
    ellipse(img, spot, frow(0), px_x(9.15), px_y(9.15),
            [&](int x) { return side < 0 ? x + 0.5 > area_edge + 1 : x + 0.5 < area_edge - 1; });
    // The goal: a net behind the goal line, as deep as the engine's.
    const int back = static_cast<int>(std::floor(fcol(side) + side * px_x(2.55)));
    const int post_top = row(-3.7 / kMetresPerY), post_bottom = row(3.7 / kMetresPerY);
    const int x0 = std::min(back, side < 0 ? left : right), x1 = std::max(back, side < 0 ? left : right);
    fill_rect(img, x0, post_top, x1, post_bottom, kNet);
    rect(img, x0, post_top, x1, post_bottom, kLine);
  }
}

void tally(RgbImage& img, int goals, int start, int step, Colour c) {
  const int n = std::clamp(goals, 0, kMaxTally);
  for (int i = 0; i < n; ++i) {
    const int x = start + step * (5 * i + 6 * (i / 5));
    fill_rect(img, std::min(x, x + step), 8, std::max(x, x + step), 21, c);
  }
}

void team(RgbImage& img, const football::TeamState& t, Colour c, int owner) {
  const int n = std::clamp(t.count, 0, football::kMaxTeamPlayers);
  for (int i = 0; i < n; ++i) {
    const football::PlayerState& p = t.players[i];
    if (!p.active || !drawable(p.x, p.y)) continue;
    const int cx = col(p.x), cy = row(p.y);
    raster::fill_circle(img, cx, cy, kPlayerRadius + 1, i == owner ? kLine : kOutline);
    raster::fill_circle(img, cx, cy, kPlayerRadius, c);
  }
}

}  // namespace

void pitch(const football::GameState& s, RgbImage& out) {
  out.reset(kHeight, kWidth, kGrass[0], kGrass[1], kGrass[2]);
  // Ten stripes between the goal lines, carried on into the margins.
  const double stripe = kPixelsPerX * 2 / 10;
  for (int x = 0; x < kWidth; ++x) {
    if (static_cast<int>(std::floor((x + 0.5 - fcol(-1)) / stripe)) % 2 == 0) continue;
    for (int y = 0; y < kHeight; ++y) std::memcpy(out.at(y, x), kGrassLight.data(), 3);
  }
  markings(out);

  tally(out, s.left_goals, col(-1), 1, kLeftColour);
  tally(out, s.right_goals, col(1) - 1, -1, kRightColour);
  const long long total = static_cast<long long>(s.step) + s.steps_left;
  if (s.step >= 0 && s.steps_left >= 0 && total > 0) {
    const int y0 = row(kHalfWidth) + 13, x0 = col(-1), length = col(1) - col(-1);
    fill_rect(out, x0, y0, x0 + length, y0 + 3, kTrack);
    fill_rect(out, x0, y0, x0 + static_cast<int>(static_cast<long long>(length) * s.step / total), y0 + 3, kLine);
  }

  const int owner = s.ball_owned_player;
  team(out, s.right, kRightColour, s.ball_owned_team == 1 ? owner : -1);
  team(out, s.left, kLeftColour, s.ball_owned_team == 0 ? owner : -1);
  const int ctl = s.left_controlled;
  if (ctl >= 0 && ctl < std::min(s.left.count, football::kMaxTeamPlayers)) {
    const football::PlayerState& p = s.left.players[ctl];
    if (p.active && drawable(p.x, p.y)) ring(out, col(p.x), row(p.y), kRingInner, kRingOuter, kControlledColour);
  }

  // The ball last, so it shows over a player who has it; a ball in the air
  // looks bigger.
  if (drawable(s.ball[0], s.ball[1])) {
    const float z = std::isfinite(s.ball[2]) ? s.ball[2] : 0.0f;
    const int r = 3 + std::clamp(static_cast<int>(std::floor(std::clamp(z, 0.0f, 100.0f) / 2)), 0, 4);
    const int cx = col(s.ball[0]), cy = row(s.ball[1]);
    raster::fill_circle(out, cx, cy, r + 1, kOutline);
    raster::fill_circle(out, cx, cy, r, kBallColour);
  }
}

}  // namespace seedrl::football_draw
