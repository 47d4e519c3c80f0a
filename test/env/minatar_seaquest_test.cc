// Seaquest rule cases, hand-derived from the reference's seaquest.py
// (github.com/kenjyoung/MinAtar, v1.0.15).
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "minatar_scripted_policies.h"
#include "seedrl/env/minatar/seaquest.h"
#include "seedrl/env/registry.h"

using namespace seedrl;
using namespace seedrl::minatar;

namespace {
using State = Seaquest::State;
using Mover = Seaquest::Mover;
using Bullet = Seaquest::Bullet;
constexpr int C = Seaquest::kChannels;

EnvOptions options(bool ramping = true) {
  EnvOptions o;
  o.sticky_action_prob = 0.0;
  o.difficulty_ramping = ramping;
  return o;
}

// The start state with spawning pushed far away, the sub at (y, x).
State quiet(int y, int x) {
  State s;
  s.e_spawn_timer = s.d_spawn_timer = 100000;
  s.sub_y = y;
  s.sub_x = x;
  s.surface = y == 0;
  return s;
}

struct Fixture {
  Seaquest env;
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
};
}  // namespace

TEST_CASE("seaquest spec and start observation follow the reference's channel order", "[minatar]") {
  Fixture f;
  CHECK(f.env.spec().name == "minatar:seaquest");
  CHECK(f.env.spec().observation == ArraySpec{{10, 10, 10}, DType::kUInt8});
  CHECK(f.env.spec().action == ActionSpec::discrete(6));
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 10; ++x)
      for (int c = 0; c < C; ++c) {
        // Sub at (0,5) facing left, so its back is at (0,6); a full oxygen bar.
        bool want = (c == Seaquest::kSubFront && y == 0 && x == 5) || (c == Seaquest::kSubBack && y == 0 && x == 6) ||
                    (c == Seaquest::kOxygenGauge && y == 9);
        INFO("y=" << y << " x=" << x << " c=" << c);
        REQUIRE(f.obs[(y * 10 + x) * C + c] == (want ? 1 : 0));
      }
  // Channel indices as in the reference's dict.
  CHECK(Seaquest::kFriendlyBullet == 2);
  CHECK(Seaquest::kTrail == 3);
  CHECK(Seaquest::kEnemyBullet == 4);
  CHECK(Seaquest::kEnemyFish == 5);
  CHECK(Seaquest::kEnemySub == 6);
  CHECK(Seaquest::kDiverGauge == 8);
  CHECK(Seaquest::kDiver == 9);
}

TEST_CASE("seaquest is registered", "[minatar]") {
  auto env = EnvRegistry::builtin().make("minatar:seaquest");
  CHECK(env->spec().observation.shape == std::vector<std::int64_t>{10, 10, 10});
  auto* game = dynamic_cast<Seaquest*>(env.get());
  REQUIRE(game != nullptr);
  CHECK(game->sticky_action_prob() == 0.1);
  CHECK(game->difficulty_ramping());
}

TEST_CASE("seaquest sub moves, turns and stays within rows 0..8", "[minatar]") {
  Fixture f;
  f.set(quiet(0, 5));
  f.step(kRight);  // (0,6) facing right: back on the left
  CHECK(f.at(0, 6, Seaquest::kSubFront));
  CHECK(f.at(0, 5, Seaquest::kSubBack));
  f.step(kUp);  // already on the surface
  CHECK(f.env.state().sub_y == 0);
  for (int i = 0; i < 12; ++i) f.step(kDown);
  CHECK(f.env.state().sub_y == 8);  // row 9 holds the gauges
  for (int i = 0; i < 12; ++i) f.step(kLeft);
  CHECK(f.env.state().sub_x == 0);
  CHECK(f.at(8, 0, Seaquest::kSubFront));
  CHECK(f.at(8, 1, Seaquest::kSubBack));
}

TEST_CASE("seaquest oxygen drains below the surface and ends the episode when empty", "[minatar]") {
  Fixture f;
  State s = quiet(1, 5);
  s.oxygen = 21;
  f.set(s);
  CHECK(f.count(Seaquest::kOxygenGauge) == 1);  // 21*10//200
  auto r = f.step(kNoop);
  CHECK(f.env.state().oxygen == 20);
  CHECK(f.count(Seaquest::kOxygenGauge) == 1);
  r = f.step(kNoop);
  CHECK(f.env.state().oxygen == 19);
  CHECK(f.count(Seaquest::kOxygenGauge) == 0);
  for (int i = 0; i < 19; ++i) {
    REQUIRE_FALSE(f.step(kNoop).terminated);
  }
  CHECK(f.env.state().oxygen == 0);
  // Checked before this frame's decrement: empty is seen for one frame.
  r = f.step(kNoop);
  CHECK(r.terminated);
  CHECK(r.reward == 0);
  CHECK(f.count(Seaquest::kOxygenGauge) == 0);  // the bar does not flash full (1.0.11 fix)

  // On the surface oxygen does not drain.
  State top = quiet(0, 5);
  top.oxygen = 1;
  f.env.reset(2, f.obs.data());
  f.set(top);
  for (int i = 0; i < 50; ++i) REQUIRE_FALSE(f.step(kNoop).terminated);
  CHECK(f.env.state().oxygen == 1);
}

TEST_CASE("seaquest from reset drains oxygen in 201 frames at depth", "[minatar]") {
  Fixture f;
  State s = quiet(0, 5);
  f.set(s);
  int t = 0;
  StepResult r;
  do {
    r = f.step(kDown);
    ++t;
  } while (!r.terminated && t < 1000);
  // Frame 1 goes down and drains to 199; frame k leaves 200-k; frame 201 sees 0.
  CHECK(t == 201);
}

TEST_CASE("seaquest surfacing without a diver ends the episode", "[minatar]") {
  Fixture f;
  State s = quiet(1, 5);
  s.oxygen = 150;
  f.set(s);
  auto r = f.step(kUp);
  CHECK(r.terminated);
  CHECK(r.reward == 0);
  // The start is on the surface but does not count as surfacing: staying up
  // with real spawning is safe for ever (enemies live in rows 1..8).
  Fixture g;
  for (int i = 0; i < 1000; ++i) REQUIRE_FALSE(g.step(kNoop).terminated);
  CHECK(g.env.state().oxygen == Seaquest::kMaxOxygen);
}

TEST_CASE("seaquest surfacing with 1..5 divers costs one and refills oxygen", "[minatar]") {
  Fixture f;
  State s = quiet(1, 5);
  s.oxygen = 50;
  s.diver_count = 3;
  f.set(s);
  CHECK(f.count(Seaquest::kDiverGauge) == 3);
  CHECK(f.at(9, 6, Seaquest::kDiverGauge));
  CHECK(f.at(9, 8, Seaquest::kDiverGauge));
  CHECK_FALSE(f.at(9, 9, Seaquest::kDiverGauge));
  auto r = f.step(kUp);
  CHECK_FALSE(r.terminated);
  CHECK(r.reward == 0);
  const auto& st = f.env.state();
  CHECK(st.diver_count == 2);
  CHECK(st.oxygen == 200);
  CHECK(st.surface);
  // Ramp: spawn interval 20 -> 19; move interval only on odd ramp indices.
  CHECK(st.e_spawn_speed == 19);
  CHECK(st.move_speed == 5);
  CHECK(st.ramp_index == 1);
  CHECK(f.count(Seaquest::kDiverGauge) == 2);
  CHECK(f.count(Seaquest::kOxygenGauge) == 10);
  // Staying up does not surface again.
  f.step(kNoop);
  CHECK(f.env.state().diver_count == 2);
  f.step(kDown);
  f.step(kUp);
  CHECK(f.env.state().diver_count == 1);
  CHECK(f.env.state().e_spawn_speed == 18);
  CHECK(f.env.state().move_speed == 4);
  CHECK(f.env.state().ramp_index == 2);
}

TEST_CASE("seaquest surfacing with 6 divers pays the oxygen bar", "[minatar]") {
  for (bool ramping : {true, false}) {
    Fixture f(ramping);
    State s = quiet(1, 5);
    s.oxygen = 150;
    s.diver_count = 6;
    f.set(s);
    CHECK(f.count(Seaquest::kDiverGauge) == 6);  // x = 3..8
    CHECK(f.at(9, 3, Seaquest::kDiverGauge));
    auto r = f.step(kUp);
    CHECK_FALSE(r.terminated);
    CHECK(r.reward == 7);  // 150*10//200
    // The reference empties the boat and then still takes one diver: -1.
    CHECK(f.env.state().diver_count == -1);
    CHECK(f.count(Seaquest::kDiverGauge) == 0);
    CHECK(f.env.state().oxygen == 200);
    CHECK(f.env.state().e_spawn_speed == (ramping ? 19 : 20));
    CHECK(f.env.state().ramp_index == (ramping ? 1 : 0));
    // So the next surfacing, with "no" diver aboard, does not end the episode.
    f.step(kDown);
    r = f.step(kUp);
    CHECK_FALSE(r.terminated);
    CHECK(r.reward == 0);
    CHECK(f.env.state().diver_count == -2);
  }
}

TEST_CASE("seaquest ramp bottoms out at spawn interval 1 and move interval 2", "[minatar]") {
  Fixture f;
  State s = quiet(1, 5);
  s.diver_count = 100;  // enough to surface many times
  f.set(s);
  for (int i = 0; i < 40; ++i) {
    f.step(kUp);
    f.step(kDown);
  }
  CHECK(f.env.state().e_spawn_speed == 1);
  CHECK(f.env.state().move_speed == 2);
  CHECK(f.env.state().ramp_index == 19);  // ramping stops once both are at their floor
}

TEST_CASE("seaquest picks up divers up to six", "[minatar]") {
  Fixture f;
  State s = quiet(2, 3);
  s.divers.push_back(Mover{4, 2, false, 0, 0});  // steps left onto the sub this frame
  s.divers.push_back(Mover{7, 5, true, 2, 0});
  f.set(s);
  CHECK(f.at(2, 4, Seaquest::kDiver));
  CHECK(f.at(2, 5, Seaquest::kTrail));  // behind a left-moving diver
  CHECK(f.at(5, 6, Seaquest::kTrail));
  f.step(kNoop);
  CHECK(f.env.state().diver_count == 1);
  REQUIRE(f.env.state().divers.size() == 1);
  CHECK(f.env.state().divers[0] == Mover{7, 5, true, 1, 0});
  CHECK(f.count(Seaquest::kDiver) == 1);

  // A full boat lets divers pass.
  State full = quiet(2, 3);
  full.diver_count = 6;
  full.divers.push_back(Mover{4, 2, false, 0, 0});
  f.set(full);
  f.step(kNoop);
  CHECK(f.env.state().diver_count == 6);
  REQUIRE(f.env.state().divers.size() == 1);
  CHECK(f.env.state().divers[0] == Mover{3, 2, false, 5, 0});
  // Divers move every 6 frames and leave the grid.
  for (int i = 0; i < 5; ++i) f.step(kNoop);
  CHECK(f.env.state().divers[0].x == 3);
  f.step(kNoop);
  CHECK(f.env.state().divers[0].x == 2);
}

TEST_CASE("seaquest player bullets hit enemies for +1 after a cool-down", "[minatar]") {
  Fixture f;
  State s = quiet(3, 2);
  s.sub_right = true;
  s.fish.push_back(Mover{6, 3, false, 5, 0});
  s.subs.push_back(Mover{9, 3, false, 8, 100});
  f.set(s);
  auto r = f.step(kFire);  // created at the sub and moved one cell
  CHECK(f.at(3, 3, Seaquest::kFriendlyBullet));
  CHECK(r.reward == 0);
  CHECK(f.step(kFire).reward == 0);  // cooling down: no second bullet
  CHECK(f.env.state().f_bullets.size() == 1);
  CHECK(f.step(kNoop).reward == 0);
  CHECK(f.at(3, 5, Seaquest::kFriendlyBullet));
  r = f.step(kNoop);  // reaches the fish, which has not moved yet
  CHECK(r.reward == 1);
  CHECK(f.env.state().fish.empty());
  CHECK(f.env.state().f_bullets.empty());
  CHECK(f.step(kFire).reward == 0);  // frame 5: still cooling down
  CHECK(f.env.state().f_bullets.empty());
  f.step(kFire);  // frame 6: fires
  CHECK(f.env.state().f_bullets.size() == 1);
  // The second bullet (x=3 on frame 6, then one cell a frame) meets the
  // enemy sub, which steps from x=9 to 8 on frame 9, at x=8 on frame 11.
  int reward = 0;
  for (int i = 0; i < 6 && !f.env.state().subs.empty(); ++i) reward += static_cast<int>(f.step(kNoop).reward);
  CHECK(reward == 1);
  CHECK(f.env.state().subs.empty());
}

TEST_CASE("seaquest enemy subs fire every 11 frames and their bullets kill", "[minatar]") {
  Fixture f;
  State s = quiet(4, 6);
  s.subs.push_back(Mover{2, 4, true, 50, 0});
  f.set(s);
  auto r = f.step(kNoop);  // fires from (4,2); the bullet moves to x=3 at once
  CHECK_FALSE(r.terminated);
  CHECK(f.at(4, 3, Seaquest::kEnemyBullet));
  CHECK(f.env.state().subs[0].shot_timer == 10);
  CHECK_FALSE(f.step(kNoop).terminated);  // x=4
  CHECK_FALSE(f.step(kNoop).terminated);  // x=5
  r = f.step(kNoop);                      // x=6: the player
  CHECK(r.terminated);

  // Period: 11 frames between shots, in a row away from the player.
  Fixture g;
  State t = quiet(0, 5);
  t.subs.push_back(Mover{1, 6, true, 1000, 0});
  g.set(t);
  std::vector<int> fired;
  for (int frame = 1; frame <= 30; ++frame) {
    const auto before = g.env.state().subs[0].shot_timer;
    g.step(kNoop);
    if (before == 0) fired.push_back(frame);
  }
  CHECK(fired == std::vector<int>{1, 12, 23});
}

TEST_CASE("seaquest enemies kill on contact and a sub shot dead still fires", "[minatar]") {
  Fixture f;
  State s = quiet(5, 4);
  s.fish.push_back(Mover{5, 5, false, 0, 0});  // steps onto the player
  f.set(s);
  CHECK(f.step(kNoop).terminated);

  // An enemy sub that moves onto a player bullet dies (+1) but, as in the
  // reference, still runs its shot timer this frame and fires from there.
  Fixture g;
  State t = quiet(0, 5);
  t.f_bullets.push_back(Bullet{5, 3, true});
  t.subs.push_back(Mover{7, 3, false, 0, 0});
  g.set(t);
  // Frame: the bullet moves to x=6 (no enemy there); the sub moves to x=6,
  // meets the bullet, dies, and fires a bullet that moves to x=5.
  auto r = g.step(kNoop);
  CHECK(r.reward == 1);
  CHECK(g.env.state().subs.empty());
  CHECK(g.env.state().f_bullets.empty());
  REQUIRE(g.env.state().e_bullets.size() == 1);
  CHECK(g.env.state().e_bullets[0] == Bullet{5, 3, false});
}

TEST_CASE("seaquest enemies spawn on schedule at an edge of rows 1..8", "[minatar]") {
  Fixture f;
  int subs = 0, right = 0, n = 0;
  int rows[10] = {};
  for (std::uint64_t seed = 0; seed < 600; ++seed) {
    f.env.reset(seed, f.obs.data());
    for (int i = 0; i < 20; ++i) f.step(kNoop);
    REQUIRE(f.env.state().fish.size() + f.env.state().subs.size() == 0);
    f.step(kNoop);  // frame 21: the spawn timer (20) has run out
    const auto& st = f.env.state();
    REQUIRE(st.fish.size() + st.subs.size() == 1);
    const Mover m = st.subs.empty() ? st.fish[0] : st.subs[0];
    REQUIRE(m.x == (m.right ? 0 : 9));
    REQUIRE(m.y >= 1);
    REQUIRE(m.y <= 8);
    REQUIRE(m.move_timer == 4);  // spawned with 5, ticked once
    if (!st.subs.empty()) REQUIRE(m.shot_timer == 9);
    subs += !st.subs.empty();
    right += m.right;
    rows[m.y] += 1;
    ++n;
    // Divers: frame 31.
    for (int i = 0; i < 9; ++i) f.step(kNoop);
    REQUIRE(f.env.state().divers.empty());
    f.step(kNoop);
    REQUIRE(f.env.state().divers.size() == 1);
  }
  // Binomial bounds at about 4.5 sigma.
  CHECK(subs > 200 - 52);
  CHECK(subs < 200 + 52);
  CHECK(right > 300 - 55);
  CHECK(right < 300 + 55);
  for (int y = 1; y <= 8; ++y) {
    CHECK(rows[y] > 75 - 37);
    CHECK(rows[y] < 75 + 37);
  }
}

TEST_CASE("seaquest does not spawn into a row with an enemy heading the other way", "[minatar]") {
  // Fill every row with a right-moving fish; only right-moving spawns succeed.
  int spawned = 0;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    Fixture f;
    f.env.reset(seed, f.obs.data());
    State s = quiet(0, 5);
    s.e_spawn_timer = 0;
    for (int y = 1; y <= 8; ++y) s.fish.push_back(Mover{4, y, true, 100, 0});
    f.set(s);
    f.step(kNoop);
    const auto& st = f.env.state();
    const std::size_t extra = st.fish.size() + st.subs.size() - 8;
    REQUIRE(extra <= 1);
    if (extra == 1) {
      const Mover m = st.subs.empty() ? st.fish.back() : st.subs.back();
      REQUIRE(m.right);
      REQUIRE(m.x == 0);
    }
    spawned += static_cast<int>(extra);
    CHECK(st.e_spawn_timer == 19);  // reset even when nothing spawned
  }
  CHECK(spawned > 100 - 32);
  CHECK(spawned < 100 + 32);
}

TEST_CASE("seaquest is reproducible from a seed", "[minatar]") {
  // With default options (sticky actions on).
  auto run = minatar_scripted::seeded_trace<Seaquest>;
  const auto a = run(5), b = run(5), c = run(6);
  CHECK(a == b);
  CHECK(a != c);
}

TEST_CASE("seaquest matches golden traces of the reference", "[minatar]") {
  // Numbers from the reference seaquest.py with its numpy stream replaced by
  // a port of seedrl::Rng (test/env/minatar_compare_scripted.py --golden GAME POLICY
  // STICKY RAMPING EPISODES SEED): every observation, reward and termination
  // along ~31k frames, including surfacings, full boats and ramping.
  minatar_scripted::check_golden_cases<Seaquest>(true,
                                                 {
                                                     {"scripted", 0.1, true, 40, 7, 391, 12188, 0x9f59c148d5db5f5dull},
                                                     {"noisy", 0.1, true, 60, 8, 97, 4687, 0x88ee74ef96ccd580ull},
                                                     {"scripted", 0.0, false, 40, 9, 461, 14097, 0xc40e3c7d1688a784ull},
                                                 });
}
