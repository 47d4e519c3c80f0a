#include "seedrl/env/minatar/breakout.h"

namespace seedrl::minatar {
namespace {
// Direction after a reflection, indexed by the current direction.
constexpr int kFlipX[4] = {1, 0, 3, 2};     // off a side wall
constexpr int kFlipY[4] = {3, 2, 1, 0};     // off the ceiling, a brick or the paddle
constexpr int kFlipBoth[4] = {2, 3, 0, 1};  // off the paddle's corner
constexpr int kDx[4] = {-1, 1, 1, -1};
constexpr int kDy[4] = {-1, -1, 1, 1};

void fill_brick_rows(Breakout::State& s) {
  for (int y = 1; y <= 3; ++y) s.bricks[y].fill(1);
}

bool any_brick(const Breakout::State& s) {
  for (const auto& row : s.bricks)
    for (auto b : row)
      if (b) return true;
  return false;
}
}  // namespace

Breakout::Breakout(const EnvOptions& options)
    : Game("minatar:breakout", {"paddle", "ball", "trail", "brick"}, options) {}

void Breakout::reset_game() {
  s_ = State{};
  // The ball starts on row 3 in a corner column, heading down and inwards.
  if (rng().below(2) == 0) {
    s_.ball_x = 0;
    s_.ball_dir = 2;
  } else {
    s_.ball_x = 9;
    s_.ball_dir = 3;
  }
  s_.ball_y = 3;
  s_.last_x = s_.ball_x;
  s_.last_y = s_.ball_y;
  fill_brick_rows(s_);
}

Outcome Breakout::act(int action) {
  Outcome out;
  if (action == kLeft) s_.pos = s_.pos > 0 ? s_.pos - 1 : 0;
  if (action == kRight) s_.pos = s_.pos < 9 ? s_.pos + 1 : 9;

  s_.last_x = s_.ball_x;
  s_.last_y = s_.ball_y;
  int nx = s_.ball_x + kDx[s_.ball_dir];
  int ny = s_.ball_y + kDy[s_.ball_dir];

  bool strike_toggle = false;
  if (nx < 0 || nx > 9) {
    nx = nx < 0 ? 0 : 9;
    s_.ball_dir = kFlipX[s_.ball_dir];
  }
  if (ny < 0) {
    ny = 0;
    s_.ball_dir = kFlipY[s_.ball_dir];
  } else if (s_.bricks[ny][nx]) {
    strike_toggle = true;
    // Only one brick per pair of frames: right after a strike the ball
    // passes into the next brick's cell without breaking it.
    if (!s_.strike) {
      out.reward += 1;
      s_.strike = true;
      s_.bricks[ny][nx] = 0;
      ny = s_.last_y;
      s_.ball_dir = kFlipY[s_.ball_dir];
    }
  } else if (ny == 9) {
    if (!any_brick(s_)) fill_brick_rows(s_);
    if (s_.ball_x == s_.pos) {  // the ball comes down onto the paddle
      s_.ball_dir = kFlipY[s_.ball_dir];
      ny = s_.last_y;
    } else if (nx == s_.pos) {  // the ball meets the paddle's corner
      s_.ball_dir = kFlipBoth[s_.ball_dir];
      ny = s_.last_y;
    } else {
      out.terminal = true;
    }
  }
  if (!strike_toggle) s_.strike = false;

  s_.ball_x = nx;
  s_.ball_y = ny;
  return out;
}

void Breakout::draw(Frame& frame) const {
  frame.set(s_.ball_y, s_.ball_x, kBall);
  frame.set(9, s_.pos, kPaddle);
  frame.set(s_.last_y, s_.last_x, kTrail);
  for (int y = 0; y < kGridSize; ++y)
    for (int x = 0; x < kGridSize; ++x)
      if (s_.bricks[y][x]) frame.set(y, x, kBrick);
}

}  // namespace seedrl::minatar
