// Breakout rule cases, hand-derived from the reference's breakout.py.
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "seedrl/env/minatar/breakout.h"

using namespace seedrl;
using namespace seedrl::minatar;

namespace {
using State = Breakout::State;

EnvOptions no_sticky() {
  EnvOptions o;
  o.sticky_action_prob = 0.0;
  return o;
}

// An empty board with the ball at (y, x) heading `dir` and the paddle at `pos`.
State board(int y, int x, int dir, int pos) {
  State s;
  s.ball_y = s.last_y = y;
  s.ball_x = s.last_x = x;
  s.ball_dir = dir;
  s.pos = pos;
  return s;
}

struct Fixture {
  Breakout env{no_sticky()};
  std::vector<std::uint8_t> obs = std::vector<std::uint8_t>(400);
  Fixture() { env.reset(1, obs.data()); }
  StepResult step(int a) { return env.step(Action{a, nullptr}, obs.data()); }
  bool at(int y, int x, int c) const { return obs[(y * 10 + x) * 4 + c] != 0; }
  int count(int c) const {
    int n = 0;
    for (int i = 0; i < 100; ++i) n += obs[i * 4 + c];
    return n;
  }
};
}  // namespace

TEST_CASE("breakout starts with three brick rows and the ball in a corner column", "[minatar]") {
  Breakout env(no_sticky());
  CHECK(env.spec().name == "minatar:breakout");
  CHECK(env.spec().observation == ArraySpec{{10, 10, 4}, DType::kUInt8});
  CHECK(env.spec().action == ActionSpec::discrete(6));
  CHECK(env.spec().max_episode_steps == 0);
  std::vector<std::uint8_t> obs(400);
  int left = 0;
  for (std::uint64_t seed = 0; seed < 400; ++seed) {
    env.reset(seed, obs.data());
    const auto& s = env.state();
    REQUIRE(s.ball_y == 3);
    REQUIRE(((s.ball_x == 0 && s.ball_dir == 2) || (s.ball_x == 9 && s.ball_dir == 3)));
    left += s.ball_x == 0;
    for (int y = 0; y < 10; ++y)
      for (int x = 0; x < 10; ++x) {
        // Channel order: paddle, ball, trail, brick; values 0/1.
        REQUIRE(obs[(y * 10 + x) * 4 + 0] == (y == 9 && x == 4));
        REQUIRE(obs[(y * 10 + x) * 4 + 1] == (y == 3 && x == s.ball_x));
        REQUIRE(obs[(y * 10 + x) * 4 + 2] == (y == 3 && x == s.ball_x));
        REQUIRE(obs[(y * 10 + x) * 4 + 3] == (y >= 1 && y <= 3));
      }
  }
  CHECK(left > 200 - 45);  // Binomial(400, 1/2): 4.5 sigma
  CHECK(left < 200 + 45);
}

TEST_CASE("breakout ball reflects off walls and the ceiling", "[minatar]") {
  Fixture f;
  f.env.set_state(board(5, 9, 1, 4));  // up-right into the right wall
  CHECK(f.step(kNoop).reward == 0);
  CHECK(f.env.state().ball_x == 9);
  CHECK(f.env.state().ball_y == 4);
  CHECK(f.env.state().ball_dir == 0);
  CHECK(f.at(4, 9, Breakout::kBall));
  CHECK(f.at(5, 9, Breakout::kTrail));

  f.env.set_state(board(0, 3, 0, 4));  // up-left into the ceiling
  f.step(kNoop);
  CHECK(f.env.state().ball_x == 2);
  CHECK(f.env.state().ball_y == 0);
  CHECK(f.env.state().ball_dir == 3);

  f.env.set_state(board(0, 0, 0, 4));  // into the corner: both flips, stays put
  f.step(kNoop);
  CHECK(f.env.state().ball_x == 0);
  CHECK(f.env.state().ball_y == 0);
  CHECK(f.env.state().ball_dir == 2);
}

TEST_CASE("breakout breaks one brick, scores and bounces back", "[minatar]") {
  Fixture f;
  State s = board(4, 5, 0, 4);
  for (int y = 1; y <= 3; ++y) s.bricks[y].fill(1);
  f.env.set_state(s);
  const StepResult r = f.step(kNoop);
  CHECK(r.reward == 1.0f);
  CHECK_FALSE(r.terminated);
  const auto& t = f.env.state();
  CHECK(t.bricks[3][4] == 0);
  CHECK(t.ball_x == 4);  // moves sideways, stays on its row
  CHECK(t.ball_y == 4);
  CHECK(t.ball_dir == 3);  // now down-left
  CHECK(t.strike);
  CHECK(f.count(Breakout::kBrick) == 29);
  CHECK_FALSE(f.at(3, 4, Breakout::kBrick));
  CHECK(f.at(4, 4, Breakout::kBall));
  CHECK(f.at(4, 5, Breakout::kTrail));
}

TEST_CASE("breakout right after a strike the ball enters a brick without breaking it", "[minatar]") {
  Fixture f;
  State s = board(5, 5, 1, 4);
  s.bricks[4][6] = 1;
  s.bricks[3][7] = 1;
  s.strike = true;
  f.env.set_state(s);
  CHECK(f.step(kNoop).reward == 0);
  CHECK(f.env.state().bricks[4][6] == 1);
  CHECK(f.env.state().ball_x == 6);
  CHECK(f.env.state().ball_y == 4);
  CHECK(f.env.state().ball_dir == 1);
  CHECK(f.env.state().strike);  // still striking: the next brick passes too
  CHECK(f.step(kNoop).reward == 0);
  CHECK(f.env.state().ball_y == 3);
  CHECK(f.env.state().bricks[3][7] == 1);
  // Free of bricks the strike flag clears, and the next brick breaks.
  State u = board(5, 5, 1, 4);
  u.strike = true;
  f.env.set_state(u);
  f.step(kNoop);
  CHECK_FALSE(f.env.state().strike);
}

TEST_CASE("breakout paddle bounces: centre, corner, miss", "[minatar]") {
  Fixture f;
  // Coming down onto the paddle's column: reflect upwards, keep going right.
  f.env.set_state(board(8, 4, 2, 4));
  StepResult r = f.step(kNoop);
  CHECK_FALSE(r.terminated);
  CHECK(f.env.state().ball_dir == 1);
  CHECK(f.env.state().ball_x == 5);
  CHECK(f.env.state().ball_y == 8);

  // Landing on the paddle from the side: reverse both ways.
  f.env.set_state(board(8, 3, 2, 4));
  r = f.step(kNoop);
  CHECK_FALSE(r.terminated);
  CHECK(f.env.state().ball_dir == 0);
  CHECK(f.env.state().ball_x == 4);
  CHECK(f.env.state().ball_y == 8);

  // The paddle moves before the ball: stepping left under it catches it.
  f.env.set_state(board(8, 3, 2, 5));
  r = f.step(kLeft);
  CHECK(f.env.state().pos == 4);
  CHECK_FALSE(r.terminated);
  CHECK(f.env.state().ball_dir == 0);

  // Missing ends the episode with the ball on the bottom row.
  f.env.set_state(board(8, 3, 3, 6));
  r = f.step(kNoop);
  CHECK(r.terminated);
  CHECK(r.reward == 0);
  CHECK(f.at(9, 2, Breakout::kBall));
  // Once terminal the game stands still and pays nothing.
  r = f.step(kRight);
  CHECK(r.terminated);
  CHECK(f.env.state().pos == 6);
}

TEST_CASE("breakout refills the brick rows when a cleared board's ball reaches the bottom", "[minatar]") {
  Fixture f;
  f.env.set_state(board(7, 2, 2, 4));  // no bricks left
  f.step(kNoop);
  CHECK(f.count(Breakout::kBrick) == 0);  // row 8: not yet
  f.step(kNoop);                          // row 9: paddle corner bounce, refill
  CHECK(f.count(Breakout::kBrick) == 30);
  for (int x = 0; x < 10; ++x) CHECK((f.at(1, x, 3) && f.at(2, x, 3) && f.at(3, x, 3)));
  // A board with bricks left is not refilled.
  State s = board(8, 4, 2, 4);
  s.bricks[2][2] = 1;
  f.env.set_state(s);
  f.step(kNoop);
  CHECK(f.count(Breakout::kBrick) == 1);
}

TEST_CASE("breakout paddle moves left and right within the board", "[minatar]") {
  Fixture f;
  f.env.set_state(board(3, 4, 0, 0));
  f.step(kLeft);
  CHECK(f.env.state().pos == 0);
  f.step(kRight);
  CHECK(f.env.state().pos == 1);
  f.step(kUp);
  f.step(kDown);
  f.step(kFire);
  CHECK(f.env.state().pos == 1);
}
