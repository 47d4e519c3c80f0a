// MinAtar Space Invaders: a cannon on the bottom row shoots upwards at a 4x6
// block of aliens (+1 each) that marches sideways, stepping down and turning
// at the edges, and speeds up as it thins out. The alien nearest the cannon
// fires back every 10 frames. A cleared wave is replaced by a new one, faster
// with difficulty ramping. The episode ends when an alien or alien bullet
// reaches the cannon, or the aliens step down from the bottom row. Channels:
// cannon, alien, alien moving left, alien moving right, friendly bullet,
// enemy bullet.
#pragma once

#include <array>
#include <cstdint>

#include "seedrl/env/minatar/game.h"

namespace seedrl::minatar {

class SpaceInvaders final : public Game {
 public:
  enum Channel : int {
    kCannon = 0,
    kAlien = 1,
    kAlienLeft = 2,
    kAlienRight = 3,
    kFriendlyBullet = 4,
    kEnemyBullet = 5,
    kChannels = 6
  };
  static constexpr int kShotCoolDown = 5;
  static constexpr int kEnemyMoveInterval = 12;
  static constexpr int kEnemyShotInterval = 10;
  static constexpr int kMinMoveInterval = 6;  // ramping stops here

  using Grid = std::array<std::array<std::uint8_t, kGridSize>, kGridSize>;  // [y][x], 0/1

  struct State {
    int pos = 5;  // cannon column
    Grid aliens{}, f_bullets{}, e_bullets{};
    int alien_dir = -1;  // -1 left, +1 right
    int enemy_move_interval = kEnemyMoveInterval;
    int alien_move_timer = kEnemyMoveInterval;
    int alien_shot_timer = kEnemyShotInterval;
    int ramp_index = 0;
    int shot_timer = 0;
  };

  explicit SpaceInvaders(const EnvOptions& options = {});

  // The start formation: rows 0..3, columns 2..7.
  static void fill_wave(Grid& aliens);

  const State& state() const { return s_; }
  void set_state(const State& s) { s_ = s; }
  int difficulty_ramp() const { return s_.ramp_index; }

 protected:
  void reset_game() override;
  Outcome act(int action) override;
  void draw(Frame& frame) const override;

 private:
  void move_aliens(Outcome& out);
  void alien_shoot();
  State s_;
};

}  // namespace seedrl::minatar
