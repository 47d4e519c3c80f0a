#include "seedrl/env/minatar/space_invaders.h"

#include <algorithm>

namespace seedrl::minatar {
namespace {
using Grid = SpaceInvaders::Grid;

int count(const Grid& g) {
  int n = 0;
  for (const auto& row : g)
    for (auto c : row) n += c;
  return n;
}

bool column_any(const Grid& g, int x) {
  for (const auto& row : g)
    if (row[x]) return true;
  return false;
}

bool row_any(const Grid& g, int y) {
  return std::any_of(g[y].begin(), g[y].end(), [](std::uint8_t c) { return c != 0; });
}

// np.roll by one row: rows wrap around.
void roll_down(Grid& g) { std::rotate(g.rbegin(), g.rbegin() + 1, g.rend()); }

// np.roll by one column in direction dir (+1 right, -1 left): columns wrap.
void roll_sideways(Grid& g, int dir) {
  for (auto& row : g) {
    if (dir > 0)
      std::rotate(row.rbegin(), row.rbegin() + 1, row.rend());
    else
      std::rotate(row.begin(), row.begin() + 1, row.end());
  }
}
}  // namespace

SpaceInvaders::SpaceInvaders(const EnvOptions& options)
    : Game("minatar:space_invaders",
           {"cannon", "alien", "alien_left", "alien_right", "friendly_bullet", "enemy_bullet"}, options) {}

void SpaceInvaders::fill_wave(Grid& aliens) {
  for (int y = 0; y < 4; ++y)
    for (int x = 2; x < 8; ++x) aliens[y][x] = 1;
}

void SpaceInvaders::reset_game() {
  s_ = State{};
  fill_wave(s_.aliens);
}

void SpaceInvaders::move_aliens(Outcome& out) {
  // The timer is set here and ticks in this same frame, so the block moves
  // every min(aliens, interval) frames: it speeds up as it thins out, down
  // to every frame for the last alien.
  s_.alien_move_timer = std::min(count(s_.aliens), s_.enemy_move_interval);
  if ((column_any(s_.aliens, 0) && s_.alien_dir < 0) || (column_any(s_.aliens, 9) && s_.alien_dir > 0)) {
    s_.alien_dir = -s_.alien_dir;
    if (row_any(s_.aliens, 9)) out.terminal = true;
    roll_down(s_.aliens);
  } else {
    roll_sideways(s_.aliens, s_.alien_dir);
  }
  if (s_.aliens[9][s_.pos]) out.terminal = true;
}

void SpaceInvaders::alien_shoot() {
  // The lowest alien in the nonempty column nearest the cannon fires; of two
  // columns equally near, the left one (the reference sorts stably by |x-pos|).
  auto fire_from = [&](int x) {
    if (x < 0 || x > 9) return false;
    for (int y = kGridSize - 1; y >= 0; --y) {
      if (s_.aliens[y][x]) {
        s_.e_bullets[y][x] = 1;
        return true;
      }
    }
    return false;
  };
  for (int d = 0; d < kGridSize; ++d) {
    if (fire_from(s_.pos - d)) return;
    if (d > 0 && fire_from(s_.pos + d)) return;
  }
}

Outcome SpaceInvaders::act(int action) {
  Outcome out;
  if (action == kFire) {
    if (s_.shot_timer == 0) {
      s_.f_bullets[9][s_.pos] = 1;
      s_.shot_timer = kShotCoolDown;
    }
  } else if (action == kLeft) {
    s_.pos = std::max(0, s_.pos - 1);
  } else if (action == kRight) {
    s_.pos = std::min(9, s_.pos + 1);
  }

  // Friendly bullets rise one row (leaving from the top); enemy bullets fall.
  std::rotate(s_.f_bullets.begin(), s_.f_bullets.begin() + 1, s_.f_bullets.end());
  s_.f_bullets[9].fill(0);
  roll_down(s_.e_bullets);
  s_.e_bullets[0].fill(0);
  if (s_.e_bullets[9][s_.pos]) out.terminal = true;

  if (s_.aliens[9][s_.pos]) out.terminal = true;
  if (s_.alien_move_timer == 0) move_aliens(out);
  if (s_.alien_shot_timer == 0) {
    s_.alien_shot_timer = kEnemyShotInterval;
    alien_shoot();
  }

  for (int y = 0; y < kGridSize; ++y)
    for (int x = 0; x < kGridSize; ++x)
      if (s_.aliens[y][x] && s_.f_bullets[y][x]) {
        s_.aliens[y][x] = s_.f_bullets[y][x] = 0;
        out.reward += 1;
      }

  if (s_.shot_timer > 0) s_.shot_timer -= 1;
  s_.alien_move_timer -= 1;
  s_.alien_shot_timer -= 1;
  if (count(s_.aliens) == 0) {
    if (s_.enemy_move_interval > kMinMoveInterval && difficulty_ramping()) {
      s_.enemy_move_interval -= 1;
      s_.ramp_index += 1;
    }
    fill_wave(s_.aliens);
  }
  return out;
}

void SpaceInvaders::draw(Frame& frame) const {
  frame.set(9, s_.pos, kCannon);
  const int heading = s_.alien_dir < 0 ? kAlienLeft : kAlienRight;
  for (int y = 0; y < kGridSize; ++y)
    for (int x = 0; x < kGridSize; ++x) {
      if (s_.aliens[y][x]) {
        frame.set(y, x, kAlien);
        frame.set(y, x, heading);
      }
      if (s_.f_bullets[y][x]) frame.set(y, x, kFriendlyBullet);
      if (s_.e_bullets[y][x]) frame.set(y, x, kEnemyBullet);
    }
}

}  // namespace seedrl::minatar
