// MinAtar Asterix: the player moves in the 4 directions (rows 1..8) while
// enemies and gold spawn at either edge of a free lane and cross it; +1 for
// touching gold, the episode ends on touching an enemy. With difficulty
// ramping, spawning and movement speed up every ~100 frames. Channels:
// player, enemy, trail (the cell behind each entity), gold.
#pragma once

#include <array>

#include "seedrl/env/minatar/game.h"

namespace seedrl::minatar {

class Asterix final : public Game {
 public:
  enum Channel : int { kPlayer = 0, kEnemy = 1, kTrail = 2, kGold = 3, kChannels = 4 };
  static constexpr int kRampInterval = 100;
  static constexpr int kInitSpawnSpeed = 10;
  static constexpr int kInitMoveInterval = 5;

  // The entity in slot i lives on row i+1; an empty slot has active=false.
  struct Entity {
    bool active = false;
    int x = 0;
    bool right = false;  // moving rightwards (spawned at x=0)
    bool gold = false;
  };
  struct State {
    int player_x = 5, player_y = 5;
    std::array<Entity, 8> entities{};
    int spawn_speed = kInitSpawnSpeed;
    int spawn_timer = kInitSpawnSpeed;
    int move_speed = kInitMoveInterval;
    int move_timer = kInitMoveInterval;
    int ramp_timer = kRampInterval;
    int ramp_index = 0;
  };

  explicit Asterix(const EnvOptions& options = {});

  const State& state() const { return s_; }
  void set_state(const State& s) { s_ = s; }
  // The reference's difficulty_ramp(): how many times difficulty has increased.
  int difficulty_ramp() const { return s_.ramp_index; }

 protected:
  void reset_game() override;
  Outcome act(int action) override;
  void draw(Frame& frame) const override;

 private:
  void spawn_entity();
  // Resolves contact between the player and the entity in `slot`.
  void touch(int slot, Outcome& out);
  State s_;
};

}  // namespace seedrl::minatar
