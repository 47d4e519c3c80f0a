// MinAtar Breakout: a paddle on the bottom row bounces a diagonal ball into
// three rows of bricks (+1 each); the rows refill when cleared; the episode
// ends when the ball reaches the bottom row past the paddle. Channels:
// paddle, ball, trail (the ball's previous cell), brick. No difficulty ramp.
#pragma once

#include <array>

#include "seedrl/env/minatar/game.h"

namespace seedrl::minatar {

class Breakout final : public Game {
 public:
  enum Channel : int { kPaddle = 0, kBall = 1, kTrail = 2, kBrick = 3, kChannels = 4 };
  // Ball directions as in the reference: 0 up-left, 1 up-right, 2 down-right, 3 down-left.
  struct State {
    int ball_x = 0, ball_y = 3, ball_dir = 2;
    int last_x = 0, last_y = 3;
    int pos = 4;                                                          // paddle column
    bool strike = false;                                                  // a brick was hit on the previous frame
    std::array<std::array<std::uint8_t, kGridSize>, kGridSize> bricks{};  // [y][x]
  };

  explicit Breakout(const EnvOptions& options = {});

  const State& state() const { return s_; }
  void set_state(const State& s) { s_ = s; }

 protected:
  void reset_game() override;
  Outcome act(int action) override;
  void draw(Frame& frame) const override;

 private:
  State s_;
};

}  // namespace seedrl::minatar
