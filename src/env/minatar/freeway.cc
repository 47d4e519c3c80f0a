#include "seedrl/env/minatar/freeway.h"

#include <cstdlib>

namespace seedrl::minatar {

Freeway::Freeway(const EnvOptions& options)
    : Game("minatar:freeway", {"chicken", "car", "speed1", "speed2", "speed3", "speed4", "speed5"}, options) {}

void Freeway::randomize_cars(bool initialize) {
  // As the reference: eight speeds uniform in 1..5, then eight directions.
  int speeds[8];
  for (int& v : speeds) v = 1 + static_cast<int>(rng().below(5));
  for (int& v : speeds) v = rng().uniform() < 0.5 ? -v : v;
  for (int i = 0; i < 8; ++i) {
    Car& c = s_.cars[i];
    if (initialize) {
      c.x = 0;
      c.y = i + 1;
    }
    c.timer = std::abs(speeds[i]);
    c.speed = speeds[i];
  }
}

void Freeway::reset_game() {
  s_ = State{};
  randomize_cars(true);
}

Outcome Freeway::act(int action) {
  Outcome out;
  if (action == kUp && s_.move_timer == 0) {
    s_.move_timer = kPlayerSpeed;
    s_.pos = s_.pos > 0 ? s_.pos - 1 : 0;
  } else if (action == kDown && s_.move_timer == 0) {
    s_.move_timer = kPlayerSpeed;
    s_.pos = s_.pos < 9 ? s_.pos + 1 : 9;
  }

  if (s_.pos == 0) {  // crossed: score, new car speeds, back to the bottom
    out.reward += 1;
    randomize_cars(false);
    s_.pos = 9;
  }

  // A car hits the chicken (column 4) before or after it moves.
  for (Car& c : s_.cars) {
    if (c.x == 4 && c.y == s_.pos) s_.pos = 9;
    if (c.timer == 0) {
      c.timer = std::abs(c.speed);
      c.x += c.speed > 0 ? 1 : -1;
      if (c.x < 0) c.x = 9;
      if (c.x > 9) c.x = 0;
      if (c.x == 4 && c.y == s_.pos) s_.pos = 9;
    } else {
      c.timer -= 1;
    }
  }

  if (s_.move_timer > 0) s_.move_timer -= 1;
  s_.terminate_timer -= 1;
  out.terminal = s_.terminate_timer < 0;
  return out;
}

void Freeway::draw(Frame& frame) const {
  frame.set(s_.pos, 4, kChicken);
  for (const Car& c : s_.cars) {
    frame.set(c.y, c.x, kCar);
    int back = c.speed > 0 ? c.x - 1 : c.x + 1;
    if (back < 0) back = 9;
    if (back > 9) back = 0;
    frame.set(c.y, back, kSpeed1 + std::abs(c.speed) - 1);
  }
}

}  // namespace seedrl::minatar
