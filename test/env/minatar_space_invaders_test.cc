// Space Invaders rule cases, hand-derived from the reference's
// space_invaders.py (github.com/kenjyoung/MinAtar, v1.0.15).
#include <catch2/catch.hpp>
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "minatar_scripted_policies.h"
#include "seedrl/env/minatar/space_invaders.h"
#include "seedrl/env/registry.h"

using namespace seedrl;
using namespace seedrl::minatar;

namespace {
using State = SpaceInvaders::State;
using SI = SpaceInvaders;
constexpr int C = SI::kChannels;

EnvOptions options(bool ramping = true, double sticky = 0.0) {
  EnvOptions o;
  o.sticky_action_prob = sticky;
  o.difficulty_ramping = ramping;
  return o;
}

// Aliens at the given cells, nothing moving or firing for a long time.
State still(std::initializer_list<std::pair<int, int>> aliens, int pos = 5) {
  State s;
  s.pos = pos;
  s.alien_move_timer = s.alien_shot_timer = 100000;
  for (auto [y, x] : aliens) s.aliens[y][x] = 1;
  return s;
}

struct Fixture {
  SpaceInvaders env;
  std::vector<std::uint8_t> obs = std::vector<std::uint8_t>(10 * 10 * C);
  explicit Fixture(bool ramping = true) : env(options(ramping)) { env.reset(1, obs.data()); }
  void set(const State& s) {
    env.set_state(s);
    env.write_obs(obs.data());
  }
  StepResult step(int a) { return env.step(Action{a, nullptr}, obs.data()); }
  bool at(int y, int x, int c) const { return obs[(y * 10 + x) * C + c] != 0; }
  int count(int c) const {
    int n = 0;
    for (int i = 0; i < 100; ++i) n += obs[i * C + c];
    return n;
  }
  // True when the aliens are exactly rows [y0, y0+4) x columns [x0, x0+6).
  bool block_at(int y0, int x0, int heading) const {
    for (int y = 0; y < 10; ++y)
      for (int x = 0; x < 10; ++x) {
        const bool in = y >= y0 && y < y0 + 4 && x >= x0 && x < x0 + 6;
        if (at(y, x, SI::kAlien) != in || at(y, x, heading) != in) return false;
        if (at(y, x, heading == SI::kAlienLeft ? SI::kAlienRight : SI::kAlienLeft)) return false;
      }
    return true;
  }
};
}  // namespace

TEST_CASE("space invaders spec and start observation follow the reference's channel order", "[minatar]") {
  Fixture f;
  CHECK(f.env.spec().name == "minatar:space_invaders");
  CHECK(f.env.spec().observation == ArraySpec{{10, 10, 6}, DType::kUInt8});
  CHECK(f.env.spec().action == ActionSpec::discrete(6));
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 10; ++x)
      for (int c = 0; c < C; ++c) {
        // Cannon at (9,5); aliens in rows 0..3, columns 2..7, heading left.
        const bool alien = y < 4 && x >= 2 && x < 8;
        const bool want = (c == SI::kCannon && y == 9 && x == 5) || ((c == SI::kAlien || c == SI::kAlienLeft) && alien);
        INFO("y=" << y << " x=" << x << " c=" << c);
        REQUIRE(f.obs[(y * 10 + x) * C + c] == (want ? 1 : 0));
      }
  CHECK(SI::kAlienRight == 3);
  CHECK(SI::kFriendlyBullet == 4);
  CHECK(SI::kEnemyBullet == 5);
}

TEST_CASE("space invaders is registered", "[minatar]") {
  auto env = EnvRegistry::builtin().make("minatar:space_invaders");
  CHECK(env->spec().observation.shape == std::vector<std::int64_t>{10, 10, 6});
  auto* game = dynamic_cast<SpaceInvaders*>(env.get());
  REQUIRE(game != nullptr);
  CHECK(game->sticky_action_prob() == 0.1);
  CHECK(game->difficulty_ramping());
}

TEST_CASE("space invaders doing nothing dies to the first alien shot on frame 17", "[minatar]") {
  // Shot timer 10: the lowest alien of column 5 (row 3) fires on frame 11;
  // the bullet falls a row a frame and reaches the cannon (row 9) on frame 17.
  Fixture f;
  for (int t = 1; t <= 16; ++t) {
    INFO("frame " << t);
    REQUIRE_FALSE(f.step(kNoop).terminated);
    if (t == 11) CHECK(f.at(3, 5, SI::kEnemyBullet));
    if (t == 16) CHECK(f.at(8, 5, SI::kEnemyBullet));
  }
  CHECK(f.step(kNoop).terminated);
  // Sidestepping survives it.
  Fixture g;
  for (int t = 1; t <= 16; ++t) g.step(kNoop);
  CHECK_FALSE(g.step(kLeft).terminated);
}

TEST_CASE("space invaders aliens march sideways, then step down and turn at an edge", "[minatar]") {
  Fixture f;
  State s = f.env.state();
  s.alien_shot_timer = 100000;
  f.set(s);
  // Move timer 12: the block moves on frames 13, 25, 37, 49 (24 aliens > 12).
  for (int t = 1; t <= 12; ++t) f.step(kNoop);
  CHECK(f.block_at(0, 2, SI::kAlienLeft));
  f.step(kNoop);
  CHECK(f.block_at(0, 1, SI::kAlienLeft));
  CHECK(f.env.state().alien_move_timer == 11);
  for (int t = 14; t <= 24; ++t) f.step(kNoop);
  CHECK(f.block_at(0, 1, SI::kAlienLeft));
  f.step(kNoop);  // 25
  CHECK(f.block_at(0, 0, SI::kAlienLeft));
  for (int t = 26; t <= 37; ++t) f.step(kNoop);
  CHECK(f.block_at(1, 0, SI::kAlienRight));  // touched column 0: down and turn
  for (int t = 38; t <= 49; ++t) f.step(kNoop);
  CHECK(f.block_at(1, 1, SI::kAlienRight));
}

TEST_CASE("space invaders speed up as they thin out", "[minatar]") {
  Fixture f;
  State s = still({{2, 5}, {2, 6}, {4, 3}});
  s.alien_move_timer = 0;
  f.set(s);
  // Three aliens: the timer is set to min(3, 12) = 3 and ticks in the same
  // frame, so the block moves every 3 frames.
  std::vector<int> moved;
  for (int t = 1; t <= 9; ++t) {
    const int before = f.env.state().alien_move_timer;
    f.step(kNoop);
    if (before == 0) moved.push_back(t);
  }
  CHECK(moved == std::vector<int>{1, 4, 7});
  CHECK(f.env.state().aliens[4][0] == 1);  // three steps left from column 3
  CHECK(f.env.state().aliens[2][2] == 1);

  // The last alien moves every frame.
  State one = still({{2, 5}});
  one.alien_move_timer = 0;
  f.set(one);
  f.step(kNoop);
  CHECK(f.at(2, 4, SI::kAlien));
  f.step(kNoop);
  CHECK(f.at(2, 3, SI::kAlien));
  f.step(kNoop);
  CHECK(f.at(2, 2, SI::kAlien));
}

TEST_CASE("space invaders aliens reaching the cannon or stepping off the bottom end it", "[minatar]") {
  Fixture f;
  State side = still({{9, 6}}, 5);
  side.alien_move_timer = 0;
  f.set(side);
  CHECK(f.step(kNoop).terminated);

  State down = still({{8, 0}}, 0);
  down.alien_move_timer = 0;
  f.env.reset(3, f.obs.data());
  f.set(down);
  CHECK(f.step(kNoop).terminated);

  // An alien on the bottom row at the edge: the block would step down.
  State off = still({{9, 0}}, 5);
  off.alien_move_timer = 0;
  f.env.reset(4, f.obs.data());
  f.set(off);
  CHECK(f.step(kNoop).terminated);
  CHECK(f.env.state().alien_dir == 1);
  CHECK(f.at(0, 0, SI::kAlien));  // np.roll wraps the row round
  CHECK(f.at(0, 0, SI::kAlienRight));

  // Walking into an alien on the bottom row.
  State walk = still({{9, 4}}, 5);
  f.env.reset(5, f.obs.data());
  f.set(walk);
  CHECK(f.step(kLeft).terminated);
}

TEST_CASE("space invaders cannon fires every 5 frames and bullets kill aliens", "[minatar]") {
  Fixture f;
  f.set(still({{3, 5}}));
  std::vector<int> rewarded;
  for (int t = 1; t <= 11; ++t) {
    const auto r = f.step(kFire);
    if (r.reward != 0) rewarded.push_back(t);
    CHECK(r.reward <= 1);
    if (t == 1) {
      CHECK(f.at(8, 5, SI::kFriendlyBullet));  // placed on row 9, then moved up
      CHECK(f.count(SI::kFriendlyBullet) == 1);
    }
    if (t == 5) CHECK(f.count(SI::kFriendlyBullet) == 1);  // no second shot yet
    if (t == 6) CHECK(f.count(SI::kFriendlyBullet) == 1);  // first died, second born
  }
  // The first bullet reaches row 3 on frame 6; the second (fired on frame 6)
  // hits the new wave's bottom row in column 5 on frame 11.
  CHECK(rewarded == std::vector<int>{6, 11});

  // Bullets leave from the top row.
  f.set(still({{5, 0}}));
  State s = f.env.state();
  s.f_bullets[0][7] = 1;
  f.set(s);
  f.step(kNoop);
  CHECK(f.count(SI::kFriendlyBullet) == 0);
}

TEST_CASE("space invaders bullets and aliens crossing in one frame pass through", "[minatar]") {
  Fixture f;
  State s = still({{4, 0}}, 9);
  s.alien_move_timer = 0;  // at the left edge heading left: steps down
  s.f_bullets[5][0] = 1;
  f.set(s);
  CHECK(f.step(kNoop).reward == 0);
  CHECK(f.at(5, 0, SI::kAlien));
  CHECK(f.at(4, 0, SI::kFriendlyBullet));

  State meet = still({{4, 0}}, 9);
  meet.alien_move_timer = 0;
  meet.f_bullets[6][0] = 1;
  f.set(meet);
  CHECK(f.step(kNoop).reward == 1);
}

TEST_CASE("space invaders: the lowest alien of the nearest column shoots every 10 frames", "[minatar]") {
  Fixture f;
  // Columns 1 and 7 are both 3 from the cannon: the left one wins.
  State tie = still({{2, 1}, {5, 7}}, 4);
  tie.alien_shot_timer = 0;
  f.set(tie);
  f.step(kNoop);
  CHECK(f.count(SI::kEnemyBullet) == 1);
  CHECK(f.at(2, 1, SI::kEnemyBullet));
  f.step(kNoop);
  CHECK(f.at(3, 1, SI::kEnemyBullet));

  State low = still({{0, 4}, {2, 4}, {6, 3}}, 4);
  low.alien_shot_timer = 0;
  f.set(low);
  f.step(kNoop);
  CHECK(f.at(2, 4, SI::kEnemyBullet));
  CHECK(f.count(SI::kEnemyBullet) == 1);

  State near = still({{1, 6}, {0, 3}}, 4);
  near.alien_shot_timer = 0;
  f.set(near);
  std::vector<int> shots;
  for (int t = 1; t <= 24; ++t) {
    const int before = f.env.state().alien_shot_timer;
    f.step(kNoop);
    if (before == 0) shots.push_back(t);
    if (t == 1) CHECK(f.at(0, 3, SI::kEnemyBullet));
  }
  CHECK(shots == std::vector<int>{1, 11, 21});  // reset to 10 and ticked in the same frame
}

TEST_CASE("space invaders enemy bullets kill on reaching the cannon's cell", "[minatar]") {
  Fixture f;
  State s = still({{0, 0}}, 5);
  s.e_bullets[8][5] = 1;
  f.set(s);
  CHECK(f.step(kNoop).terminated);
  f.env.reset(2, f.obs.data());
  f.set(s);
  CHECK_FALSE(f.step(kRight).terminated);  // the cannon moves before bullets fall
  CHECK(f.count(SI::kEnemyBullet) == 1);   // now on row 9, then it falls off
  f.step(kNoop);
  CHECK(f.count(SI::kEnemyBullet) == 0);
}

TEST_CASE("space invaders: a cleared wave respawns faster with ramping", "[minatar]") {
  for (bool ramping : {true, false}) {
    Fixture f(ramping);
    State s = still({{3, 5}}, 9);
    s.f_bullets[4][5] = 1;
    s.alien_move_timer = 40;
    f.set(s);
    const auto r = f.step(kNoop);
    CHECK(r.reward == 1);
    CHECK_FALSE(r.terminated);
    CHECK(f.block_at(0, 2, SI::kAlienLeft));
    CHECK(f.env.state().enemy_move_interval == (ramping ? 11 : 12));
    CHECK(f.env.state().ramp_index == (ramping ? 1 : 0));
    CHECK(f.env.state().alien_move_timer == 39);  // not reset by a new wave
  }
  // Ramping stops at a move interval of 6.
  Fixture f;
  State s = still({{3, 5}}, 9);
  s.f_bullets[4][5] = 1;
  s.enemy_move_interval = 6;
  s.ramp_index = 6;
  f.set(s);
  f.step(kNoop);
  CHECK(f.env.state().enemy_move_interval == 6);
  CHECK(f.env.state().ramp_index == 6);
  // The new wave then moves with timer min(24, 6).
  State m = f.env.state();
  m.alien_move_timer = 0;
  f.set(m);
  f.step(kNoop);
  CHECK(f.env.state().alien_move_timer == 5);
  CHECK(f.block_at(0, 1, SI::kAlienLeft));
}

TEST_CASE("space invaders is reproducible from a seed", "[minatar]") {
  // With default options (sticky actions are its only randomness).
  auto run = minatar_scripted::seeded_trace<SpaceInvaders>;
  const auto a = run(5), b = run(5), c = run(6);
  CHECK(a == b);
  CHECK(a != c);
}

TEST_CASE("space invaders matches golden traces of the reference", "[minatar]") {
  // Numbers from the reference space_invaders.py with its numpy stream
  // replaced by a port of seedrl::Rng (test/env/minatar_compare_scripted.py --golden
  // GAME POLICY STICKY RAMPING EPISODES SEED): every observation, reward and
  // termination along ~25k frames, including cleared waves and ramping.
  minatar_scripted::check_golden_cases<SpaceInvaders>(
      false, {
                 {"scripted", 0.1, true, 40, 7, 949, 11006, 0xc421c5665eced683ull},
                 {"noisy", 0.1, true, 60, 8, 1166, 11124, 0xb6b32e05d10aafa5ull},
                 {"random", 0.0, false, 60, 9, 180, 3124, 0x8a3c42e18c904bdaull},
             });
}
