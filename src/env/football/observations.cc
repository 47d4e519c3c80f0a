#include "seedrl/env/football/observations.h"

#include <algorithm>
#include <cstring>

namespace seedrl::football {

namespace {

// observation_preprocessing.py's MINIMAP_NORM_*; the arithmetic is Python's,
// in double, so that every mark lands on the same pixel.
constexpr double kXMin = -1.0, kXMax = 1.0;
constexpr double kYMin = -1.0 / 2.25, kYMax = 1.0 / 2.25;

// The cell mark_points puts an environment coordinate in (clamped to the map).
int smm_column(double x) {
  const int c = static_cast<int>((x - kXMin) / (kXMax - kXMin) * kSmmWidth);
  return std::clamp(c, 0, kSmmWidth - 1);
}

int smm_row(double y) {
  const int r = static_cast<int>((y - kYMin) / (kYMax - kYMin) * kSmmHeight);
  return std::clamp(r, 0, kSmmHeight - 1);
}

void mark(std::uint8_t* out, int plane, double x, double y) {
  out[(static_cast<std::size_t>(smm_row(y)) * kSmmWidth + smm_column(x)) * kSmmPlanes + plane] = 255;
}

void mark_team(std::uint8_t* out, int plane, const TeamState& t) {
  for (int i = 0; i < t.count; ++i) mark(out, plane, t.players[i].x, t.players[i].y);
}

}  // namespace

void write_smm(const GameState& s, std::uint8_t* out) {
  std::memset(out, 0, static_cast<std::size_t>(kSmmHeight) * kSmmWidth * kSmmPlanes);
  mark_team(out, 0, s.left);
  mark_team(out, 1, s.right);
  // The ball's x and y (its height is one more "point" of the flattened
  // array in Python; mark_points reads pairs, so z pairs with nothing).
  mark(out, 2, s.ball[0], s.ball[1]);
  if (s.left_controlled >= 0 && s.left_controlled < s.left.count) {
    const PlayerState& p = s.left.players[static_cast<std::size_t>(s.left_controlled)];
    mark(out, 3, p.x, p.y);
  }
}

void write_simple115v2(const GameState& s, float* out) {
  // Positions then directions of each team, every block padded with -1 to
  // 11 players (fixed_positions).
  auto block = [&out](const TeamState& t, bool directions) {
    for (int i = 0; i < kMaxTeamPlayers; ++i) {
      const bool here = i < t.count;
      const PlayerState& p = t.players[static_cast<std::size_t>(here ? i : 0)];
      *out++ = here ? (directions ? p.dx : p.x) : -1.f;
      *out++ = here ? (directions ? p.dy : p.y) : -1.f;
    }
  };
  block(s.left, false);
  block(s.left, true);
  block(s.right, false);
  block(s.right, true);
  for (float v : s.ball) *out++ = v;
  for (float v : s.ball_direction) *out++ = v;
  *out++ = s.ball_owned_team == -1 ? 1.f : 0.f;
  *out++ = s.ball_owned_team == 0 ? 1.f : 0.f;
  *out++ = s.ball_owned_team == 1 ? 1.f : 0.f;
  for (int i = 0; i < kMaxTeamPlayers; ++i) *out++ = i == s.left_controlled ? 1.f : 0.f;
  for (int m = 0; m < kNumGameModes; ++m) *out++ = m == static_cast<int>(s.game_mode) ? 1.f : 0.f;
}

}  // namespace seedrl::football
