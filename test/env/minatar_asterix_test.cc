// Asterix rule cases, hand-derived from the reference's asterix.py.
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "seedrl/env/minatar/asterix.h"

using namespace seedrl;
using namespace seedrl::minatar;

namespace {
using State = Asterix::State;
using Entity = Asterix::Entity;

EnvOptions options(bool ramping) {
  EnvOptions o;
  o.sticky_action_prob = 0.0;
  o.difficulty_ramping = ramping;
  return o;
}

struct Fixture {
  Asterix env;
  std::vector<std::uint8_t> obs = std::vector<std::uint8_t>(400);
  explicit Fixture(bool ramping = true) : env(options(ramping)) { env.reset(5, obs.data()); }
  StepResult step(int a) { return env.step(Action{a, nullptr}, obs.data()); }
  bool at(int y, int x, int c) const { return obs[(y * 10 + x) * 4 + c] != 0; }
  // Removes every entity so nothing can touch the player.
  void clear_entities() {
    State s = env.state();
    s.entities = {};
    env.set_state(s);
  }
  int active() const {
    int n = 0;
    for (const auto& e : env.state().entities) n += e.active;
    return n;
  }
};

State with_player(int y, int x) {
  State s;
  s.player_y = y;
  s.player_x = x;
  s.spawn_timer = 50;  // keep spawns out of these cases
  return s;
}
}  // namespace

TEST_CASE("asterix starts empty with the player in the middle", "[minatar]") {
  Fixture f;
  CHECK(f.env.spec().name == "minatar:asterix");
  CHECK(f.env.spec().observation == ArraySpec{{10, 10, 4}, DType::kUInt8});
  int ones = 0;
  for (auto v : f.obs) ones += v;
  CHECK(ones == 1);
  CHECK(f.at(5, 5, Asterix::kPlayer));
  CHECK(f.env.difficulty_ramp() == 0);
}

TEST_CASE("asterix first spawn comes on frame 11 and moves in the same frame", "[minatar]") {
  Fixture f;
  for (int t = 1; t <= 10; ++t) {
    f.step(kNoop);
    REQUIRE(f.active() == 0);
  }
  f.step(kNoop);  // spawn_timer hit 0; move_timer too (it moved on frame 6)
  REQUIRE(f.active() == 1);
  int slot = 0;
  while (!f.env.state().entities[slot].active) ++slot;
  const Entity& e = f.env.state().entities[slot];
  CHECK(e.x == (e.right ? 1 : 8));
  CHECK(f.at(slot + 1, e.x, e.gold ? Asterix::kGold : Asterix::kEnemy));
  CHECK(f.at(slot + 1, e.right ? 0 : 9, Asterix::kTrail));
  CHECK(f.env.state().spawn_timer == 9);
  CHECK(f.env.state().move_timer == 4);
}

TEST_CASE("asterix spawns pick side 1/2, gold 1/3 and a uniformly free lane", "[minatar]") {
  Fixture f(false);
  const int n = 6000;
  int right = 0, gold = 0, lane[8] = {};
  for (int i = 0; i < n; ++i) {
    State s = with_player(5, 5);
    s.spawn_timer = 0;
    s.move_timer = 3;
    f.env.set_state(s);
    f.step(kNoop);
    REQUIRE(f.active() == 1);
    for (int k = 0; k < 8; ++k) {
      const Entity& e = f.env.state().entities[k];
      if (!e.active) continue;
      REQUIRE(e.x == (e.right ? 0 : 9));
      right += e.right;
      gold += e.gold;
      ++lane[k];
    }
  }
  CHECK(std::abs(right - n / 2) < 4.5 * 38.7);  // sigma = sqrt(n/4)
  CHECK(std::abs(gold - n / 3) < 4.5 * 36.5);   // sigma = sqrt(2n/9)
  for (int k : lane) CHECK(std::abs(k - n / 8) < 4.5 * 25.6);

  // With seven lanes taken the spawn goes to the free one; with none free, none.
  State s = with_player(5, 5);
  for (int k = 0; k < 8; ++k) s.entities[k] = Entity{k != 6, 5, false, false};
  s.spawn_timer = 0;
  s.move_timer = 3;
  s.player_x = 0;
  f.env.set_state(s);
  f.step(kNoop);
  CHECK(f.active() == 8);
  CHECK(f.env.state().entities[6].x % 9 == 0);
  s = f.env.state();
  s.spawn_timer = 0;
  f.env.set_state(s);
  f.step(kNoop);
  CHECK(f.active() == 8);
}

TEST_CASE("asterix gold pays +1 and enemies end the episode, before or after they move", "[minatar]") {
  Fixture f;
  State s = with_player(5, 5);
  s.entities[4] = Entity{true, 4, false, true};  // gold to the player's left
  f.env.set_state(s);
  StepResult r = f.step(kLeft);  // the player steps onto it
  CHECK(r.reward == 1.0f);
  CHECK_FALSE(r.terminated);
  CHECK(f.active() == 0);

  s = with_player(5, 5);
  s.entities[4] = Entity{true, 6, false, true};
  s.move_timer = 0;  // the gold moves onto the player
  f.env.set_state(s);
  r = f.step(kNoop);
  CHECK(r.reward == 1.0f);
  CHECK(f.active() == 0);

  s = with_player(5, 5);
  s.entities[4] = Entity{true, 6, false, false};
  s.move_timer = 0;  // an enemy moves onto the player
  f.env.set_state(s);
  r = f.step(kNoop);
  CHECK(r.terminated);
  CHECK(r.reward == 0);

  s = with_player(5, 5);
  s.entities[4] = Entity{true, 6, false, false};
  s.move_timer = 2;                         // not moving this frame: the player walks into it
  f.env.reset(std::nullopt, f.obs.data());  // leave the terminal state
  f.env.set_state(s);
  CHECK(f.step(kRight).terminated);

  s = with_player(5, 5);
  f.env.reset(std::nullopt, f.obs.data());
  s.entities[3] = Entity{true, 5, true, false};  // one row up: passes by
  s.move_timer = 0;
  f.env.set_state(s);
  CHECK_FALSE(f.step(kNoop).terminated);
  CHECK(f.env.state().entities[3].x == 6);
  CHECK(f.at(4, 6, Asterix::kEnemy));
  CHECK(f.at(4, 5, Asterix::kTrail));
}

TEST_CASE("asterix player stays within columns 0-9 and rows 1-8 and entities leave at the edge", "[minatar]") {
  Fixture f;
  State s = with_player(1, 3);
  s.entities[7] = Entity{true, 9, true, false};
  s.entities[0] = Entity{true, 0, false, true};
  s.move_timer = 0;
  f.env.set_state(s);
  CHECK(f.step(kUp).reward == 0);
  CHECK(f.env.state().player_y == 1);
  CHECK(f.active() == 0);  // both walked off the board
  f.env.set_state(with_player(2, 0));
  f.step(kLeft);
  CHECK(f.env.state().player_x == 0);
  s = with_player(8, 9);
  f.env.set_state(s);
  f.step(kDown);
  f.step(kRight);
  f.step(kFire);
  CHECK(f.env.state().player_y == 8);
  CHECK(f.env.state().player_x == 9);
}

TEST_CASE("asterix difficulty ramps every 102 frames down to one-frame speeds", "[minatar]") {
  Fixture f;
  std::vector<int> ramp_frames;
  for (int t = 1; t <= 1200; ++t) {
    f.clear_entities();
    const int before = f.env.difficulty_ramp();
    REQUIRE_FALSE(f.step(kNoop).terminated);
    if (f.env.difficulty_ramp() != before) ramp_frames.push_back(t);
    const auto& s = f.env.state();
    if (t == 101) CHECK((s.spawn_speed == 10 && s.move_speed == 5));
    if (t == 102) CHECK((s.spawn_speed == 9 && s.move_speed == 5));  // even index: spawn only
    if (t == 204) CHECK((s.spawn_speed == 8 && s.move_speed == 4));
  }
  // Nine ramps: spawn 10 -> 1, move 5 -> 1 on the odd ones (1, 3, 5, 7).
  std::vector<int> expected;
  for (int k = 1; k <= 9; ++k) expected.push_back(102 * k);
  CHECK(ramp_frames == expected);
  CHECK(f.env.state().spawn_speed == 1);
  CHECK(f.env.state().move_speed == 1);

  Fixture flat(false);
  for (int t = 1; t <= 300; ++t) {
    flat.clear_entities();
    flat.step(kNoop);
  }
  CHECK(flat.env.difficulty_ramp() == 0);
  CHECK(flat.env.state().spawn_speed == 10);
  CHECK(flat.env.state().move_speed == 5);
}
