#include "seedrl/env/minatar/asterix.h"

namespace seedrl::minatar {

Asterix::Asterix(const EnvOptions& options) : Game("minatar:asterix", {"player", "enemy", "trail", "gold"}, options) {}

void Asterix::reset_game() { s_ = State{}; }

void Asterix::spawn_entity() {
  // The reference draws side and kind even when every lane is taken.
  const bool lr = rng().uniform() < 1.0 / 2.0;
  const bool gold = rng().uniform() < 1.0 / 3.0;
  int free_slots[8];
  int n = 0;
  for (int i = 0; i < 8; ++i)
    if (!s_.entities[i].active) free_slots[n++] = i;
  if (n == 0) return;
  const int slot = free_slots[rng().below(static_cast<std::uint64_t>(n))];
  s_.entities[slot] = Entity{true, lr ? 0 : 9, lr, gold};
}

void Asterix::touch(int slot, Outcome& out) {
  Entity& e = s_.entities[slot];
  if (!e.active || e.x != s_.player_x || slot + 1 != s_.player_y) return;
  if (e.gold) {
    e.active = false;
    out.reward += 1;
  } else {
    out.terminal = true;
  }
}

Outcome Asterix::act(int action) {
  Outcome out;
  if (s_.spawn_timer == 0) {
    spawn_entity();
    s_.spawn_timer = s_.spawn_speed;
  }

  if (action == kLeft)
    s_.player_x = s_.player_x > 0 ? s_.player_x - 1 : 0;
  else if (action == kRight)
    s_.player_x = s_.player_x < 9 ? s_.player_x + 1 : 9;
  else if (action == kUp)
    s_.player_y = s_.player_y > 1 ? s_.player_y - 1 : 1;
  else if (action == kDown)
    s_.player_y = s_.player_y < 8 ? s_.player_y + 1 : 8;

  // Contact is checked after the player moves and again after entities move.
  for (int i = 0; i < 8; ++i) touch(i, out);
  if (s_.move_timer == 0) {
    s_.move_timer = s_.move_speed;
    for (int i = 0; i < 8; ++i) {
      Entity& e = s_.entities[i];
      if (!e.active) continue;
      e.x += e.right ? 1 : -1;
      if (e.x < 0 || e.x > 9) e.active = false;
      touch(i, out);
    }
  }

  s_.spawn_timer -= 1;
  s_.move_timer -= 1;

  // Ramp: the timer counts 100 down to -1, so every 102nd frame spawning gets
  // one frame faster and, every other time, movement too (both down to 1).
  if (difficulty_ramping() && (s_.spawn_speed > 1 || s_.move_speed > 1)) {
    if (s_.ramp_timer >= 0) {
      s_.ramp_timer -= 1;
    } else {
      if (s_.move_speed > 1 && s_.ramp_index % 2 == 1) s_.move_speed -= 1;
      if (s_.spawn_speed > 1) s_.spawn_speed -= 1;
      s_.ramp_index += 1;
      s_.ramp_timer = kRampInterval;
    }
  }
  return out;
}

void Asterix::draw(Frame& frame) const {
  frame.set(s_.player_y, s_.player_x, kPlayer);
  for (int i = 0; i < 8; ++i) {
    const Entity& e = s_.entities[i];
    if (!e.active) continue;
    frame.set(i + 1, e.x, e.gold ? kGold : kEnemy);
    const int back = e.right ? e.x - 1 : e.x + 1;
    if (back >= 0 && back <= 9) frame.set(i + 1, back, kTrail);
  }
}

}  // namespace seedrl::minatar
