// MinAtar Seaquest: a two-cell submarine (front and back, so its heading is
// visible) shoots enemy fish and subs (+1 each), picks up divers and must
// surface for oxygen. Surfacing with no diver ends the episode; with 1..5 it
// costs one diver; with 6 it empties the boat and pays one point per lit cell
// of the oxygen bar. Every surfacing ramps up enemy spawning and speed.
// Enemy subs fire bullets. The episode ends on touching an enemy or enemy
// bullet, or when oxygen runs out. Channels as in the reference: sub front,
// sub back, friendly bullet, trail (the cell behind each enemy and diver),
// enemy bullet, enemy fish, enemy sub, oxygen gauge, diver gauge, diver.
#pragma once

#include <vector>

#include "seedrl/env/minatar/game.h"

namespace seedrl::minatar {

class Seaquest final : public Game {
 public:
  enum Channel : int {
    kSubFront = 0,
    kSubBack = 1,
    kFriendlyBullet = 2,
    kTrail = 3,
    kEnemyBullet = 4,
    kEnemyFish = 5,
    kEnemySub = 6,
    kOxygenGauge = 7,
    kDiverGauge = 8,
    kDiver = 9,
    kChannels = 10
  };
  static constexpr int kMaxOxygen = 200;
  static constexpr int kInitSpawnSpeed = 20;
  static constexpr int kDiverSpawnSpeed = 30;
  static constexpr int kInitMoveInterval = 5;
  static constexpr int kShotCoolDown = 5;
  static constexpr int kEnemyShotInterval = 10;
  static constexpr int kDiverMoveInterval = 5;

  struct Bullet {
    int x = 0, y = 0;
    bool right = false;  // moving rightwards
    bool operator==(const Bullet&) const = default;
  };
  // A fish, an enemy sub (which also uses shot_timer) or a diver. Movers tick
  // their move_timer down and step one cell when it is 0.
  struct Mover {
    int x = 0, y = 0;
    bool right = false;  // moving rightwards (spawned at x=0)
    int move_timer = 0;
    int shot_timer = 0;  // enemy subs only
    bool operator==(const Mover&) const = default;
  };
  // The reference's fields; the lists keep its order (append, erase in place),
  // which decides ties such as which of two overlapping fish a bullet hits.
  struct State {
    int oxygen = kMaxOxygen;
    int diver_count = 0;  // drops to -1 after surfacing with 6, as in the reference
    int sub_x = 5, sub_y = 0;
    bool sub_right = false;  // heading; the back cell is behind it
    std::vector<Bullet> f_bullets, e_bullets;
    std::vector<Mover> fish, subs, divers;
    int e_spawn_speed = kInitSpawnSpeed;
    int e_spawn_timer = kInitSpawnSpeed;
    int d_spawn_timer = kDiverSpawnSpeed;
    int move_speed = kInitMoveInterval;
    int ramp_index = 0;
    int shot_timer = 0;
    bool surface = true;  // at the top since the last surfacing (or the start)
  };

  explicit Seaquest(const EnvOptions& options = {});

  const State& state() const { return s_; }
  void set_state(const State& s) { s_ = s; }
  // The reference's difficulty_ramp(): how many times difficulty has increased.
  int difficulty_ramp() const { return s_.ramp_index; }

 protected:
  void reset_game() override;
  Outcome act(int action) override;
  void draw(Frame& frame) const override;

 private:
  void spawn_enemy();
  void spawn_diver();
  int surface();  // returns the reward for surfacing
  void update_friendly_bullets(Outcome& out);
  void update_divers();
  void update_enemy_subs(Outcome& out);
  void update_enemy_bullets(Outcome& out);
  void update_fish(Outcome& out);
  State s_;
};

}  // namespace seedrl::minatar
