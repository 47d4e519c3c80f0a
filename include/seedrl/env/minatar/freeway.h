// MinAtar Freeway: a chicken in column 4 crosses eight lanes of wrapping
// cars; +1 for reaching the top row (back to the bottom and every car's speed
// and direction redrawn), back to the bottom when hit. The chicken moves at
// most once every 3 frames; the episode ends after 2500 frames of the game's
// own timer (2501 steps, as the reference counts). Channels: chicken, car,
// then speed1..speed5 trails (the cell behind each car, in the channel of
// its |speed|: a car moves once every |speed|+1 frames).
#pragma once

#include <array>

#include "seedrl/env/minatar/game.h"

namespace seedrl::minatar {

class Freeway final : public Game {
 public:
  enum Channel : int { kChicken = 0, kCar = 1, kSpeed1 = 2, kChannels = 7 };
  static constexpr int kPlayerSpeed = 3;
  static constexpr int kTimeLimit = 2500;

  // Car in lane i lives on row i+1 and moves one cell every |speed|+1 frames
  // (timer counts down to 0), rightwards when speed > 0.
  struct Car {
    int x = 0, y = 0, timer = 0, speed = 0;
  };
  struct State {
    std::array<Car, 8> cars{};
    int pos = 9;  // chicken row
    int move_timer = kPlayerSpeed;
    int terminate_timer = kTimeLimit;
  };

  explicit Freeway(const EnvOptions& options = {});

  const State& state() const { return s_; }
  void set_state(const State& s) { s_ = s; }

 protected:
  void reset_game() override;
  Outcome act(int action) override;
  void draw(Frame& frame) const override;

 private:
  void randomize_cars(bool initialize);
  State s_;
};

}  // namespace seedrl::minatar
