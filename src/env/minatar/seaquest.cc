#include "seedrl/env/minatar/seaquest.h"

#include <algorithm>

namespace seedrl::minatar {
namespace {
bool off_grid(int x) { return x < 0 || x > 9; }
int step_x(bool right) { return right ? 1 : -1; }

// Index of the first entry of `list` on (x, y), or -1: the reference scans
// its lists front to back and takes the first match.
template <class T>
int find_at(const std::vector<T>& list, int x, int y) {
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i].x == x && list[i].y == y) return static_cast<int>(i);
  return -1;
}

template <class T>
void erase_at(std::vector<T>& list, int i) {
  list.erase(list.begin() + i);
}
}  // namespace

Seaquest::Seaquest(const EnvOptions& options)
    : Game("minatar:seaquest",
           {"sub_front", "sub_back", "friendly_bullet", "trail", "enemy_bullet", "enemy_fish", "enemy_sub",
            "oxygen_gauge", "diver_gauge", "diver"},
           options) {
  for (auto* v : {&s_.f_bullets, &s_.e_bullets}) v->reserve(16);
  for (auto* v : {&s_.fish, &s_.subs, &s_.divers}) v->reserve(16);
}

void Seaquest::reset_game() {
  // Start from a fresh State but keep the lists' storage, so that later
  // episodes do not allocate.
  State fresh;
  fresh.f_bullets.swap(s_.f_bullets);
  fresh.e_bullets.swap(s_.e_bullets);
  fresh.fish.swap(s_.fish);
  fresh.subs.swap(s_.subs);
  fresh.divers.swap(s_.divers);
  s_ = std::move(fresh);
  s_.f_bullets.clear();
  s_.e_bullets.clear();
  s_.fish.clear();
  s_.subs.clear();
  s_.divers.clear();
}

void Seaquest::spawn_enemy() {
  // Three draws every time, even when the spawn is then dropped.
  const bool lr = rng().uniform() < 1.0 / 2.0;
  const bool is_sub = rng().uniform() < 1.0 / 3.0;
  const int x = lr ? 0 : 9;
  const int y = 1 + static_cast<int>(rng().below(8));
  // No spawn into a row holding an enemy heading the other way.
  for (const auto* list : {&s_.subs, &s_.fish})
    for (const Mover& m : *list)
      if (m.y == y && m.right != lr) return;
  if (is_sub)
    s_.subs.push_back(Mover{x, y, lr, s_.move_speed, kEnemyShotInterval});
  else
    s_.fish.push_back(Mover{x, y, lr, s_.move_speed, 0});
}

void Seaquest::spawn_diver() {
  const bool lr = rng().uniform() < 1.0 / 2.0;
  const int y = 1 + static_cast<int>(rng().below(8));
  s_.divers.push_back(Mover{lr ? 0 : 9, y, lr, kDiverMoveInterval, 0});
}

int Seaquest::surface() {
  s_.surface = true;
  int r = 0;
  if (s_.diver_count == 6) {
    s_.diver_count = 0;
    r = s_.oxygen * 10 / kMaxOxygen;
  }
  s_.oxygen = kMaxOxygen;
  // Unconditional, as in the reference: after a full boat the count is -1,
  // so the next surfacing is free (and sends it to -2, and so on).
  s_.diver_count -= 1;
  if (difficulty_ramping() && (s_.e_spawn_speed > 1 || s_.move_speed > 2)) {
    if (s_.move_speed > 2 && s_.ramp_index % 2 != 0) s_.move_speed -= 1;
    if (s_.e_spawn_speed > 1) s_.e_spawn_speed -= 1;
    s_.ramp_index += 1;
  }
  return r;
}

// All the lists are walked back to front like the reference's
// `for x in reversed(list)`; erasing the current entry leaves the rest of
// the walk unchanged.
void Seaquest::update_friendly_bullets(Outcome& out) {
  auto& bullets = s_.f_bullets;
  for (int i = static_cast<int>(bullets.size()) - 1; i >= 0; --i) {
    Bullet& b = bullets[i];
    b.x += step_x(b.right);
    if (off_grid(b.x)) {
      erase_at(bullets, i);
      continue;
    }
    if (const int k = find_at(s_.fish, b.x, b.y); k >= 0) {
      erase_at(s_.fish, k);
      erase_at(bullets, i);
      out.reward += 1;
    } else if (const int k2 = find_at(s_.subs, b.x, b.y); k2 >= 0) {
      erase_at(s_.subs, k2);
      erase_at(bullets, i);
      out.reward += 1;
    }
  }
}

void Seaquest::update_divers() {
  auto& divers = s_.divers;
  auto at_sub = [&](const Mover& d) { return d.x == s_.sub_x && d.y == s_.sub_y; };
  for (int i = static_cast<int>(divers.size()) - 1; i >= 0; --i) {
    Mover& d = divers[i];
    if (at_sub(d) && s_.diver_count < 6) {
      erase_at(divers, i);
      s_.diver_count += 1;
    } else if (d.move_timer == 0) {
      d.move_timer = kDiverMoveInterval;
      d.x += step_x(d.right);
      if (off_grid(d.x)) {
        erase_at(divers, i);
      } else if (at_sub(d) && s_.diver_count < 6) {
        erase_at(divers, i);
        s_.diver_count += 1;
      }
    } else {
      d.move_timer -= 1;
    }
  }
}

void Seaquest::update_enemy_subs(Outcome& out) {
  auto& subs = s_.subs;
  for (int i = static_cast<int>(subs.size()) - 1; i >= 0; --i) {
    // A copy: in the reference a sub removed this frame still runs its shot
    // timer below and may fire one last bullet from where it died.
    Mover sub = subs[i];
    bool removed = false;
    if (sub.x == s_.sub_x && sub.y == s_.sub_y) out.terminal = true;
    if (sub.move_timer == 0) {
      sub.move_timer = s_.move_speed;
      sub.x += step_x(sub.right);
      if (off_grid(sub.x)) {
        removed = true;
      } else if (sub.x == s_.sub_x && sub.y == s_.sub_y) {
        out.terminal = true;
      } else if (const int k = find_at(s_.f_bullets, sub.x, sub.y); k >= 0) {
        removed = true;
        erase_at(s_.f_bullets, k);
        out.reward += 1;
      }
    } else {
      sub.move_timer -= 1;
    }
    if (sub.shot_timer == 0) {
      sub.shot_timer = kEnemyShotInterval;
      s_.e_bullets.push_back(Bullet{sub.x, sub.y, sub.right});
    } else {
      sub.shot_timer -= 1;
    }
    if (removed)
      erase_at(subs, i);
    else
      subs[i] = sub;
  }
}

void Seaquest::update_enemy_bullets(Outcome& out) {
  auto& bullets = s_.e_bullets;
  for (int i = static_cast<int>(bullets.size()) - 1; i >= 0; --i) {
    Bullet& b = bullets[i];
    if (b.x == s_.sub_x && b.y == s_.sub_y) out.terminal = true;
    b.x += step_x(b.right);
    if (off_grid(b.x))
      erase_at(bullets, i);
    else if (b.x == s_.sub_x && b.y == s_.sub_y)
      out.terminal = true;
  }
}

void Seaquest::update_fish(Outcome& out) {
  auto& fish = s_.fish;
  for (int i = static_cast<int>(fish.size()) - 1; i >= 0; --i) {
    Mover& f = fish[i];
    if (f.x == s_.sub_x && f.y == s_.sub_y) out.terminal = true;
    if (f.move_timer != 0) {
      f.move_timer -= 1;
      continue;
    }
    f.move_timer = s_.move_speed;
    f.x += step_x(f.right);
    if (off_grid(f.x)) {
      erase_at(fish, i);
    } else if (f.x == s_.sub_x && f.y == s_.sub_y) {
      out.terminal = true;
    } else if (const int k = find_at(s_.f_bullets, f.x, f.y); k >= 0) {
      erase_at(fish, i);
      erase_at(s_.f_bullets, k);
      out.reward += 1;
    }
  }
}

Outcome Seaquest::act(int action) {
  Outcome out;
  if (s_.e_spawn_timer == 0) {
    spawn_enemy();
    s_.e_spawn_timer = s_.e_spawn_speed;
  }
  if (s_.d_spawn_timer == 0) {
    spawn_diver();
    s_.d_spawn_timer = kDiverSpawnSpeed;
  }

  if (action == kFire) {
    if (s_.shot_timer == 0) {
      s_.f_bullets.push_back(Bullet{s_.sub_x, s_.sub_y, s_.sub_right});
      s_.shot_timer = kShotCoolDown;
    }
  } else if (action == kLeft) {
    s_.sub_x = std::max(0, s_.sub_x - 1);
    s_.sub_right = false;
  } else if (action == kRight) {
    s_.sub_x = std::min(9, s_.sub_x + 1);
    s_.sub_right = true;
  } else if (action == kUp) {
    s_.sub_y = std::max(0, s_.sub_y - 1);
  } else if (action == kDown) {
    s_.sub_y = std::min(8, s_.sub_y + 1);
  }

  // Order matters (it decides who hits whom first) and follows the reference.
  update_friendly_bullets(out);
  update_divers();
  update_enemy_subs(out);
  update_enemy_bullets(out);
  update_fish(out);

  if (s_.e_spawn_timer > 0) s_.e_spawn_timer -= 1;
  if (s_.d_spawn_timer > 0) s_.d_spawn_timer -= 1;
  if (s_.shot_timer > 0) s_.shot_timer -= 1;
  // Checked before this frame's decrement: the bar shows empty for one frame.
  if (s_.oxygen <= 0) out.terminal = true;
  if (s_.sub_y > 0) {
    s_.oxygen -= 1;
    s_.surface = false;
  } else if (!s_.surface) {
    if (s_.diver_count == 0)
      out.terminal = true;
    else
      out.reward += surface();
  }
  return out;
}

void Seaquest::draw(Frame& frame) const {
  frame.set(s_.sub_y, s_.sub_x, kSubFront);
  // Always on the grid in play (the heading is that of the last sideways move).
  const int back_x = s_.sub_right ? s_.sub_x - 1 : s_.sub_x + 1;
  if (!off_grid(back_x)) frame.set(s_.sub_y, back_x, kSubBack);
  const int oxygen_cells = std::max(0, s_.oxygen) * 10 / kMaxOxygen;
  for (int x = 0; x < oxygen_cells; ++x) frame.set(9, x, kOxygenGauge);
  for (int x = std::max(0, 9 - s_.diver_count); x < 9; ++x) frame.set(9, x, kDiverGauge);
  for (const Bullet& b : s_.f_bullets) frame.set(b.y, b.x, kFriendlyBullet);
  for (const Bullet& b : s_.e_bullets) frame.set(b.y, b.x, kEnemyBullet);
  auto draw_movers = [&](const std::vector<Mover>& list, int channel) {
    for (const Mover& m : list) {
      frame.set(m.y, m.x, channel);
      const int trail_x = m.x - step_x(m.right);
      if (!off_grid(trail_x)) frame.set(m.y, trail_x, kTrail);
    }
  };
  draw_movers(s_.fish, kEnemyFish);
  draw_movers(s_.subs, kEnemySub);
  draw_movers(s_.divers, kDiver);
}

}  // namespace seedrl::minatar
