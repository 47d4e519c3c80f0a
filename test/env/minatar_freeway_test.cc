// Freeway rule cases, hand-derived from the reference's freeway.py.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "seedrl/env/minatar/freeway.h"

using namespace seedrl;
using namespace seedrl::minatar;

namespace {
using State = Freeway::State;

EnvOptions no_sticky() {
  EnvOptions o;
  o.sticky_action_prob = 0.0;
  return o;
}

// Cars far from column 4, slowest speed, heading away from it.
State quiet_road() {
  State s;
  for (int i = 0; i < 8; ++i) s.cars[i] = Freeway::Car{0, i + 1, 5, -5};
  return s;
}

struct Fixture {
  Freeway env{no_sticky()};
  std::vector<std::uint8_t> obs = std::vector<std::uint8_t>(700);
  Fixture() { env.reset(3, obs.data()); }
  StepResult step(int a) { return env.step(Action{a, nullptr}, obs.data()); }
  bool at(int y, int x, int c) const { return obs[(y * 10 + x) * 7 + c] != 0; }
};
}  // namespace

TEST_CASE("freeway starts with eight cars at the left edge and the chicken at the bottom", "[minatar]") {
  Freeway env(no_sticky());
  CHECK(env.spec().name == "minatar:freeway");
  CHECK(env.spec().observation == ArraySpec{{10, 10, 7}, DType::kUInt8});
  CHECK(env.spec().max_episode_steps == 0);
  std::vector<std::uint8_t> obs(700);
  int speed_count[6] = {}, negative = 0;
  for (std::uint64_t seed = 0; seed < 250; ++seed) {
    env.reset(seed, obs.data());
    const auto& s = env.state();
    REQUIRE(s.pos == 9);
    REQUIRE(s.move_timer == 3);
    REQUIRE(s.terminate_timer == 2500);
    int ones = 0;
    for (auto v : obs) ones += v;
    REQUIRE(ones == 1 + 8 + 8);  // chicken, cars, trails
    REQUIRE(obs[(9 * 10 + 4) * 7 + 0] == 1);
    for (int i = 0; i < 8; ++i) {
      const auto& c = s.cars[i];
      REQUIRE(c.x == 0);
      REQUIRE(c.y == i + 1);
      REQUIRE(std::abs(c.speed) >= 1);
      REQUIRE(std::abs(c.speed) <= 5);
      REQUIRE(c.timer == std::abs(c.speed));
      REQUIRE(obs[((i + 1) * 10 + 0) * 7 + 1] == 1);
      // The trail sits behind the car (wrapping) in channel 1 + |speed|.
      const int back = c.speed > 0 ? 9 : 1;
      REQUIRE(obs[((i + 1) * 10 + back) * 7 + 1 + std::abs(c.speed)] == 1);
      ++speed_count[std::abs(c.speed)];
      negative += c.speed < 0;
    }
  }
  // 2000 draws: each |speed| 1..5 with probability 1/5, sign 1/2 (4.5 sigma).
  for (int v = 1; v <= 5; ++v) {
    CHECK(speed_count[v] > 400 - 81);
    CHECK(speed_count[v] < 400 + 81);
  }
  CHECK(negative > 1000 - 101);
  CHECK(negative < 1000 + 101);
}

TEST_CASE("freeway chicken moves at most once every three frames", "[minatar]") {
  Fixture f;
  f.env.set_state(quiet_road());
  std::vector<int> rows;
  for (int t = 0; t < 10; ++t) {
    f.step(kUp);
    rows.push_back(f.env.state().pos);
  }
  // move_timer starts at 3: first move on frame 4, then every 3rd frame.
  CHECK(rows == std::vector<int>{9, 9, 9, 8, 8, 8, 7, 7, 7, 6});
  CHECK(f.at(6, 4, Freeway::kChicken));
  // Down is bounded by the bottom row; left/right/fire do nothing.
  State s = quiet_road();
  s.move_timer = 0;
  f.env.set_state(s);
  f.step(kDown);
  CHECK(f.env.state().pos == 9);
  CHECK(f.env.state().move_timer == 2);  // the timer still restarted
  s.pos = 5;
  f.env.set_state(s);
  for (int a : {kLeft, kRight, kFire, kNoop}) f.step(a);
  CHECK(f.env.state().pos == 5);
}

TEST_CASE("freeway crossing scores, returns to the bottom and redraws car speeds", "[minatar]") {
  Fixture f;
  int changed = 0;
  for (int trial = 0; trial < 20; ++trial) {
    State s = quiet_road();
    s.pos = 1;
    s.move_timer = 0;
    f.env.set_state(s);
    const StepResult r = f.step(kUp);
    CHECK(r.reward == 1.0f);
    CHECK_FALSE(r.terminated);
    const auto& t = f.env.state();
    CHECK(t.pos == 9);
    for (int i = 0; i < 8; ++i) {
      CHECK(t.cars[i].x == 0);  // positions kept: only speeds are redrawn
      CHECK(t.cars[i].y == i + 1);
      CHECK(t.cars[i].timer == std::abs(t.cars[i].speed) - 1);  // reset, then counted down
      changed += t.cars[i].speed != -5;
    }
  }
  CHECK(changed > 100);  // each car keeps -5 with probability 1/10
}

TEST_CASE("freeway car collisions send the chicken back to the bottom", "[minatar]") {
  Fixture f;
  State s = quiet_road();
  s.pos = 5;
  s.cars[4] = Freeway::Car{4, 5, 3, 3};  // already on the chicken's cell
  f.env.set_state(s);
  f.step(kNoop);
  CHECK(f.env.state().pos == 9);

  s.cars[4] = Freeway::Car{3, 5, 0, 2};  // moves into column 4 this frame
  f.env.set_state(s);
  f.step(kNoop);
  CHECK(f.env.state().pos == 9);
  CHECK(f.env.state().cars[4].x == 4);
  CHECK(f.env.state().cars[4].timer == 2);

  s.cars[4] = Freeway::Car{3, 5, 1, 2};  // not its turn to move: no hit
  f.env.set_state(s);
  f.step(kNoop);
  CHECK(f.env.state().pos == 5);
  CHECK(f.env.state().cars[4].x == 3);
  CHECK(f.env.state().cars[4].timer == 0);

  s.cars[4] = Freeway::Car{0, 5, 0, -1};  // wraps from the left edge to the right
  f.env.set_state(s);
  f.step(kNoop);
  CHECK(f.env.state().cars[4].x == 9);
  CHECK(f.at(5, 9, Freeway::kCar));
  CHECK(f.at(5, 0, Freeway::kSpeed1));  // the trail wraps too
}

TEST_CASE("freeway ends after 2500 frames of its own timer", "[minatar]") {
  Freeway env;  // default sticky actions: the timer does not care
  std::vector<std::uint8_t> obs(700);
  env.reset(11, obs.data());
  int steps = 0;
  StepResult r;
  do {
    r = env.step(Action{kNoop, nullptr}, obs.data());
    ++steps;
  } while (!r.terminated && steps < 5000);
  CHECK(steps == 2501);  // the timer counts 2500 down to -1
  CHECK_FALSE(r.truncated);
}
