// Acrobot, MountainCar, MountainCarContinuous and Pendulum against independent
// double-precision re-derivations of Gymnasium's equations, plus hand-computed
// transitions, rule cases (clips, walls, goals) and seeding.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "seedrl/env/classic/acrobot.h"
#include "seedrl/env/classic/mountain_car.h"
#include "seedrl/env/classic/mountain_car_continuous.h"
#include "seedrl/env/classic/pendulum.h"
#include "seedrl/env/registry.h"

using namespace seedrl;

namespace {
const double kPi = std::acos(-1.0);

Approx near(double x) { return Approx(x).epsilon(1e-12).margin(1e-12); }

// ---- Acrobot-v1 ("book" dynamics, Sutton & Barto) --------------------------
// Derivative of [t1, t2, dt1, dt2] for masses 1, lengths 1, com 0.5, moi 1.
void acrobot_derivs(const double* s, double a, double* ds) {
  const double g = 9.8, m1 = 1, m2 = 1, l1 = 1, lc1 = 0.5, lc2 = 0.5, moi = 1;
  const double c2 = std::cos(s[1]), s2 = std::sin(s[1]);
  const double d1 = m1 * lc1 * lc1 + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * c2) + 2 * moi;
  const double d2 = m2 * (lc2 * lc2 + l1 * lc2 * c2) + moi;
  // cos(x - pi/2) == sin(x)
  const double phi2 = m2 * lc2 * g * std::sin(s[0] + s[1]);
  const double phi1 = -m2 * l1 * lc2 * s[3] * s[3] * s2 - 2 * m2 * l1 * lc2 * s[3] * s[2] * s2 +
                      (m1 * lc1 + m2 * l1) * g * std::sin(s[0]) + phi2;
  const double dd2 =
      (a + d2 / d1 * phi1 - m2 * l1 * lc2 * s[2] * s[2] * s2 - phi2) / (m2 * lc2 * lc2 + moi - d2 * d2 / d1);
  ds[0] = s[2];
  ds[1] = s[3];
  ds[2] = -(d2 * dd2 + phi1) / d1;
  ds[3] = dd2;
}

// One step; returns whether the new state is terminal.
bool acrobot_step(double* s, int action) {
  const double a = action - 1.0, h = 0.2;
  double k[4][4], y[4];
  acrobot_derivs(s, a, k[0]);
  for (int stage = 1; stage < 4; ++stage) {
    const double f = stage == 3 ? h : h / 2;
    for (int i = 0; i < 4; ++i) y[i] = s[i] + f * k[stage - 1][i];
    acrobot_derivs(y, a, k[stage]);
  }
  for (int i = 0; i < 4; ++i) s[i] += h * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]) / 6;
  for (int i = 0; i < 2; ++i) {
    while (s[i] > kPi) s[i] -= 2 * kPi;
    while (s[i] < -kPi) s[i] += 2 * kPi;
  }
  s[2] = std::fmax(-4 * kPi, std::fmin(4 * kPi, s[2]));
  s[3] = std::fmax(-9 * kPi, std::fmin(9 * kPi, s[3]));
  return -std::cos(s[0]) - std::cos(s[0] + s[1]) > 1.0;
}

// ---- MountainCar-v0 / MountainCarContinuous-v0 ----------------------------
// Shared kinematics once the velocity change is known; returns terminal.
bool car_move(double* s, double dv, double goal) {
  s[1] += dv;
  if (s[1] > 0.07) s[1] = 0.07;
  if (s[1] < -0.07) s[1] = -0.07;
  s[0] += s[1];
  if (s[0] > 0.6) s[0] = 0.6;
  if (s[0] < -1.2) {
    s[0] = -1.2;
    if (s[1] < 0) s[1] = 0;
  }
  return s[0] >= goal && s[1] >= 0;
}
bool mountain_car_step(double* s, int action) {
  return car_move(s, (action - 1) * 0.001 - 0.0025 * std::cos(3 * s[0]), 0.5);
}
// Returns the reward; sets `done`.
double continuous_car_step(double* s, double a, bool& done) {
  const double force = a > 1 ? 1 : (a < -1 ? -1 : a);
  done = car_move(s, force * 0.0015 - 0.0025 * std::cos(3 * s[0]), 0.45);
  return (done ? 100.0 : 0.0) - 0.1 * a * a;
}

// ---- Pendulum-v1 -----------------------------------------------------------
double wrap_angle(double x) { return x - 2 * kPi * std::floor((x + kPi) / (2 * kPi)); }
// Returns the reward (minus the cost of the state before the step).
double pendulum_step(double* s, double u) {
  u = u > 2 ? 2 : (u < -2 ? -2 : u);
  const double th = wrap_angle(s[0]);
  const double cost = th * th + 0.1 * s[1] * s[1] + 0.001 * u * u;
  double w = s[1] + (15.0 * std::sin(s[0]) + 3.0 * u) * 0.05;  // 3g/(2l) = 15, 3/(ml^2) = 3
  w = w > 8 ? 8 : (w < -8 ? -8 : w);
  s[0] += w * 0.05;
  s[1] = w;
  return -cost;
}

Action cont(const float& v) { return Action{0, &v}; }

// Runs the registered env with one fixed action until it ends; returns the
// step count and the last result.
int run_until_done(Env& env, const Action& a, StepResult& last) {
  std::vector<float> obs(env.spec().observation.numel());
  env.reset(5, obs.data());
  int steps = 0;
  do {
    last = env.step(a, obs.data());
    ++steps;
  } while (!last.terminated && !last.truncated && steps < 100000);
  return steps;
}

// Same seed, same observations; an unseeded reset continues the stream.
void check_seeding(const std::string& name, const Action& a) {
  const auto& reg = EnvRegistry::builtin();
  auto e1 = reg.make(name), e2 = reg.make(name);
  const auto n = e1->spec().observation.numel();
  std::vector<float> o1(n), o2(n);
  e1->reset(2024, o1.data());
  e2->reset(2024, o2.data());
  CHECK(o1 == o2);
  for (int t = 0; t < 20; ++t) {
    StepResult r1 = e1->step(a, o1.data()), r2 = e2->step(a, o2.data());
    CHECK(o1 == o2);
    CHECK(r1.reward == r2.reward);
  }
  e1->reset(2024, o1.data());
  e2->reset(std::nullopt, o2.data());
  CHECK(o1 != o2);
  e2->reset(2025, o2.data());
  CHECK(o1 != o2);
}
}  // namespace

// =============================== Acrobot =====================================

TEST_CASE("acrobot reference derivative matches hand-computed values", "[classic]") {
  // Hanging at rest with torque +1: d1 = 4.5, d2 = 1.75, so
  // ddt2 = 1 / (1.25 - 1.75^2 / 4.5) = 72/41 and ddt1 = -1.75 * ddt2 / 4.5 = -28/41.
  const double s[4] = {0, 0, 0, 0};
  double ds[4];
  acrobot_derivs(s, 1.0, ds);
  CHECK(ds[0] == 0.0);
  CHECK(ds[1] == 0.0);
  CHECK(ds[2] == near(-28.0 / 41.0));
  CHECK(ds[3] == near(72.0 / 41.0));
  // Link 1 horizontal (t1 = pi/2), at rest, no torque: gravity only.
  // phi2 = 0.5*9.8*sin(pi/2) = 4.9, phi1 = 1.5*9.8 + 4.9 = 19.6,
  // ddt2 = (1.75/4.5*19.6 - 4.9) / (41/72), ddt1 = -(1.75*ddt2 + 19.6)/4.5.
  const double s2[4] = {kPi / 2, 0, 0, 0};
  acrobot_derivs(s2, 0.0, ds);
  const double dd2 = (1.75 / 4.5 * 19.6 - 4.9) / (41.0 / 72.0);
  CHECK(ds[3] == near(dd2));
  CHECK(ds[2] == near(-(1.75 * dd2 + 19.6) / 4.5));
}

TEST_CASE("acrobot spec and reset range", "[classic]") {
  Acrobot env;
  CHECK(env.spec().name == "acrobot");
  CHECK(env.spec().observation == ArraySpec{{6}, DType::kFloat32});
  CHECK(env.spec().action == ActionSpec::discrete(3));
  float obs[6];
  double lo = 1, hi = -1;
  for (int i = 0; i < 200; ++i) {
    env.reset(i == 0 ? std::optional<std::uint64_t>(3) : std::nullopt, obs);
    for (int k = 0; k < 4; ++k) {
      const double v = env.state()[k];
      REQUIRE(v >= -0.1);
      REQUIRE(v <= 0.1);
      REQUIRE(v == static_cast<double>(static_cast<float>(v)));  // float32 start state
      lo = std::fmin(lo, v);
      hi = std::fmax(hi, v);
    }
    REQUIRE(obs[0] == static_cast<float>(std::cos(env.state()[0])));
    REQUIRE(obs[1] == static_cast<float>(std::sin(env.state()[0])));
    REQUIRE(obs[2] == static_cast<float>(std::cos(env.state()[1])));
    REQUIRE(obs[3] == static_cast<float>(std::sin(env.state()[1])));
    REQUIRE(obs[4] == static_cast<float>(env.state()[2]));
    REQUIRE(obs[5] == static_cast<float>(env.state()[3]));
  }
  CHECK(lo < -0.09);
  CHECK(hi > 0.09);
}

TEST_CASE("acrobot transitions match the reference RK4 integration", "[classic]") {
  Acrobot env;
  float obs[6];
  env.reset(11, obs);
  double ref[4];
  for (int i = 0; i < 4; ++i) ref[i] = env.state()[i];
  // A short trajectory tracked by the reference alone.
  for (int t = 0; t < 40; ++t) {
    const int a = t % 3 == 0 ? 1 : (ref[2] + 0.3 * ref[3] >= 0 ? 2 : 0);
    acrobot_step(ref, a);
    env.step(Action{a, nullptr}, obs);
    for (int i = 0; i < 4; ++i) REQUIRE(env.state()[i] == Approx(ref[i]).epsilon(1e-9).margin(1e-9));
  }
  // The double pendulum is chaotic, so rounding differences grow over long
  // runs; from here on compare the one-step map from the env's own state.
  // The raw env keeps integrating past termination, so start with enough
  // energy for both links to whirl over the top, wrapping the angles.
  const double whirl[4] = {2.5, -1.0, 6.0, -9.0};
  env.set_state(whirl);
  bool saw_wrap = false, saw_done = false, saw_not_done = false;
  for (int t = 0; t < 400; ++t) {
    for (int i = 0; i < 4; ++i) ref[i] = env.state()[i];
    const double before[2] = {ref[0], ref[1]};
    const int a = t % 3;
    const bool ref_done = acrobot_step(ref, a);
    const StepResult r = env.step(Action{a, nullptr}, obs);
    for (int i = 0; i < 4; ++i) REQUIRE(env.state()[i] == Approx(ref[i]).epsilon(1e-12).margin(1e-12));
    for (int i = 0; i < 2; ++i) saw_wrap |= std::abs(ref[i] - before[i]) > kPi;
    saw_done |= ref_done;
    saw_not_done |= !ref_done;
    REQUIRE(r.terminated == ref_done);
    REQUIRE(r.reward == (ref_done ? 0.0f : -1.0f));
    REQUIRE(obs[0] == static_cast<float>(std::cos(env.state()[0])));
    REQUIRE(obs[1] == static_cast<float>(std::sin(env.state()[0])));
    REQUIRE(obs[2] == static_cast<float>(std::cos(env.state()[1])));
    REQUIRE(obs[3] == static_cast<float>(std::sin(env.state()[1])));
    REQUIRE(obs[4] == static_cast<float>(env.state()[2]));
    REQUIRE(obs[5] == static_cast<float>(env.state()[3]));
  }
  CHECK(saw_done);
  CHECK(saw_not_done);
  CHECK(saw_wrap);
}

TEST_CASE("acrobot wraps angles into [-pi, pi] and bounds velocities", "[classic]") {
  Acrobot env;
  float obs[6];
  env.reset(1, obs);
  // Link 1 near +pi and spinning forward: theta1 crosses pi and wraps negative.
  const double spin[4] = {3.1, 0.0, 3.0, 0.0};
  env.set_state(spin);
  double ref[4] = {3.1, 0.0, 3.0, 0.0};
  acrobot_step(ref, 1);
  env.step(Action{1, nullptr}, obs);
  CHECK(env.state()[0] < 0.0);
  CHECK(env.state()[0] >= -kPi);
  for (int i = 0; i < 4; ++i) CHECK(env.state()[i] == Approx(ref[i]).epsilon(1e-12).margin(1e-12));

  // Velocities beyond the limits (4 pi, 9 pi) come back exactly at the bound.
  const double fast[4] = {0.0, 0.0, 30.0, -60.0};
  env.set_state(fast);
  env.step(Action{2, nullptr}, obs);
  CHECK(env.state()[2] == 4 * Acrobot::kPi);
  CHECK(env.state()[3] == -9 * Acrobot::kPi);
  CHECK(env.state()[0] >= -kPi);
  CHECK(env.state()[0] <= kPi);
  CHECK(env.state()[1] >= -kPi);
  CHECK(env.state()[1] <= kPi);
  CHECK(obs[4] == static_cast<float>(4 * Acrobot::kPi));
  CHECK(obs[5] == static_cast<float>(-9 * Acrobot::kPi));
}

TEST_CASE("acrobot terminates with reward 0 once the tip is above the bar", "[classic]") {
  Acrobot env;
  float obs[6];
  env.reset(1, obs);
  // Both links straight up (height -cos(pi) - cos(pi) = 2 > 1).
  const double up[4] = {kPi, 0.0, 0.0, 0.0};
  env.set_state(up);
  StepResult r = env.step(Action{1, nullptr}, obs);
  CHECK(r.terminated);
  CHECK(r.reward == 0.0f);
  CHECK_FALSE(r.truncated);
  // Link 1 horizontal, link 2 hanging: height 0 + 0 < 1 after a short step.
  const double level[4] = {kPi / 2, -kPi / 2, 0.0, 0.0};
  env.set_state(level);
  r = env.step(Action{1, nullptr}, obs);
  CHECK_FALSE(r.terminated);
  CHECK(r.reward == -1.0f);
  // Hanging at rest with no torque is an equilibrium: the state stays at 0
  // (up to cos(-pi/2) ~ 6e-17 in Gymnasium's phi terms).
  const double rest[4] = {0, 0, 0, 0};
  env.set_state(rest);
  r = env.step(Action{1, nullptr}, obs);
  for (int i = 0; i < 4; ++i) CHECK(std::abs(env.state()[i]) < 1e-15);
  CHECK(r.reward == -1.0f);
}

TEST_CASE("registry acrobot truncates at 500 steps and reseeds reproducibly", "[classic]") {
  auto env = EnvRegistry::builtin().make("acrobot");
  CHECK(env->spec().max_episode_steps == 500);
  StepResult last;
  CHECK(run_until_done(*env, Action{1, nullptr}, last) == 500);  // no torque: hangs
  CHECK(last.truncated);
  CHECK_FALSE(last.terminated);
  check_seeding("acrobot", Action{2, nullptr});
}

// ============================= MountainCar ===================================

TEST_CASE("mountaincar hand-computed transition", "[classic]") {
  MountainCar env;
  CHECK(env.spec().name == "mountaincar");
  CHECK(env.spec().observation == ArraySpec{{2}, DType::kFloat32});
  CHECK(env.spec().action == ActionSpec::discrete(3));
  float obs[2];
  env.reset(1, obs);
  const double s0[2] = {-0.5, 0.0};
  env.set_state(s0);
  // v = 0 + 1*0.001 - 0.0025*cos(-1.5) with cos(1.5) = 0.0707372016677029.
  const StepResult r = env.step(Action{2, nullptr}, obs);
  CHECK(env.state()[1] == Approx(0.000823156995830743).epsilon(1e-12));
  CHECK(env.state()[0] == Approx(-0.499176843004169257).epsilon(1e-12));
  CHECK(obs[0] == static_cast<float>(env.state()[0]));
  CHECK(obs[1] == static_cast<float>(env.state()[1]));
  CHECK(r.reward == -1.0f);
  CHECK_FALSE(r.terminated);
}

TEST_CASE("mountaincar transitions match the reference equations", "[classic]") {
  MountainCar env;
  float obs[2];
  env.reset(77, obs);
  double ref[2] = {env.state()[0], env.state()[1]};
  bool reached = false;
  // Push with the velocity: this energy-pumping policy reaches the flag.
  for (int t = 0; t < 200 && !reached; ++t) {
    const int a = ref[1] >= 0 ? 2 : 0;
    reached = mountain_car_step(ref, t % 13 == 0 ? 1 : a);
    const StepResult r = env.step(Action{t % 13 == 0 ? 1 : a, nullptr}, obs);
    REQUIRE(env.state()[0] == near(ref[0]));
    REQUIRE(env.state()[1] == near(ref[1]));
    REQUIRE(r.terminated == reached);
    REQUIRE(r.reward == -1.0f);
  }
  CHECK(reached);
  CHECK(env.state()[0] >= 0.5);
}

TEST_CASE("mountaincar clips velocity and position and stops at the left wall", "[classic]") {
  MountainCar env;
  float obs[2];
  env.reset(1, obs);
  // At x = -pi/6 the slope term vanishes (cos(-pi/2) ~ 0): 0.0695 + 0.001 > 0.07.
  const double fast[2] = {-kPi / 6, 0.0695};
  env.set_state(fast);
  env.step(Action{2, nullptr}, obs);
  CHECK(env.state()[1] == 0.07);
  CHECK(env.state()[0] == near(-kPi / 6 + 0.07));
  const double fast_left[2] = {-kPi / 6, -0.0695};
  env.set_state(fast_left);
  env.step(Action{0, nullptr}, obs);
  CHECK(env.state()[1] == -0.07);
  // Running into the left wall: the position clips to -1.2 and the car stops.
  const double wall[2] = {-1.19, -0.05};
  env.set_state(wall);
  StepResult r = env.step(Action{0, nullptr}, obs);
  CHECK(env.state()[0] == -1.2);
  CHECK(env.state()[1] == 0.0);
  CHECK(obs[0] == -1.2f);
  CHECK(obs[1] == 0.0f);
  CHECK_FALSE(r.terminated);
  // Past the right edge: the position clips to 0.6 and the goal is reached.
  const double right[2] = {0.59, 0.07};
  env.set_state(right);
  r = env.step(Action{2, nullptr}, obs);
  CHECK(env.state()[0] == 0.6);
  CHECK(env.state()[1] > 0.0);
  CHECK(r.terminated);
}

TEST_CASE("mountaincar terminates only at the flag moving right", "[classic]") {
  MountainCar env;
  float obs[2];
  env.reset(1, obs);
  const double arriving[2] = {0.49, 0.02};
  env.set_state(arriving);
  StepResult r = env.step(Action{1, nullptr}, obs);
  CHECK(env.state()[0] >= 0.5);
  CHECK(r.terminated);
  CHECK(r.reward == -1.0f);
  // Past the flag but rolling back: not terminal (goal_velocity is 0).
  const double rolling_back[2] = {0.52, -0.001};
  env.set_state(rolling_back);
  r = env.step(Action{0, nullptr}, obs);
  CHECK(env.state()[0] >= 0.5);
  CHECK(env.state()[1] < 0.0);
  CHECK_FALSE(r.terminated);
  // Just short of the flag.
  const double short_of[2] = {0.47, 0.02};
  env.set_state(short_of);
  CHECK_FALSE(env.step(Action{1, nullptr}, obs).terminated);
  CHECK(env.state()[0] < 0.5);
}

TEST_CASE("mountaincar reset range", "[classic]") {
  MountainCar env;
  float obs[2];
  double lo = 0, hi = -1;
  env.reset(9, obs);
  for (int i = 0; i < 300; ++i) {
    env.reset(std::nullopt, obs);
    REQUIRE(env.state()[0] >= -0.6);
    REQUIRE(env.state()[0] < -0.4);
    REQUIRE(env.state()[1] == 0.0);
    REQUIRE(obs[1] == 0.0f);
    lo = std::fmin(lo, env.state()[0]);
    hi = std::fmax(hi, env.state()[0]);
  }
  CHECK(lo < -0.59);
  CHECK(hi > -0.41);
}

TEST_CASE("registry mountaincar truncates at 200 steps and reseeds reproducibly", "[classic]") {
  auto env = EnvRegistry::builtin().make("mountaincar");
  CHECK(env->spec().max_episode_steps == 200);
  StepResult last;
  CHECK(run_until_done(*env, Action{1, nullptr}, last) == 200);
  CHECK(last.truncated);
  CHECK_FALSE(last.terminated);
  check_seeding("mountaincar", Action{2, nullptr});
}

// ======================== MountainCarContinuous ==============================

TEST_CASE("mountaincar-continuous hand-computed transitions", "[classic]") {
  MountainCarContinuous env;
  CHECK(env.spec().name == "mountaincar-continuous");
  CHECK(env.spec().observation == ArraySpec{{2}, DType::kFloat32});
  CHECK(env.spec().action == ActionSpec::box({-1.f}, {1.f}));
  float obs[2];
  env.reset(1, obs);
  const double s0[2] = {-0.5, 0.0};
  env.set_state(s0);
  // v = 1*0.0015 - 0.0025*cos(-1.5); reward = -0.1 * 1^2.
  StepResult r = env.step(cont(1.0f), obs);
  CHECK(env.state()[1] == Approx(0.001323156995830743).epsilon(1e-12));
  CHECK(env.state()[0] == Approx(-0.498676843004169257).epsilon(1e-12));
  CHECK(r.reward == Approx(-0.1).epsilon(1e-6));
  CHECK_FALSE(r.terminated);
  // An action of 3 pushes like 1 but is charged as 3: reward -0.9.
  env.set_state(s0);
  r = env.step(cont(3.0f), obs);
  CHECK(env.state()[1] == Approx(0.001323156995830743).epsilon(1e-12));
  CHECK(r.reward == Approx(-0.9).epsilon(1e-6));
  env.set_state(s0);
  r = env.step(cont(-2.5f), obs);
  CHECK(env.state()[1] == Approx(-0.0015 - 0.0025 * 0.0707372016677029).epsilon(1e-12));
  CHECK(r.reward == Approx(-0.625).epsilon(1e-6));
}

TEST_CASE("mountaincar-continuous transitions match the reference equations", "[classic]") {
  MountainCarContinuous env;
  float obs[2];
  env.reset(31, obs);
  double ref[2] = {env.state()[0], env.state()[1]};
  bool done = false;
  for (int t = 0; t < 400 && !done; ++t) {
    // Energy pumping with magnitudes inside and outside [-1, 1].
    const float a = static_cast<float>((ref[1] >= 0 ? 1.0 : -1.0) * (0.4 + 0.2 * (t % 8)));
    const double reward = continuous_car_step(ref, a, done);
    const StepResult r = env.step(cont(a), obs);
    REQUIRE(env.state()[0] == near(ref[0]));
    REQUIRE(env.state()[1] == near(ref[1]));
    REQUIRE(r.terminated == done);
    REQUIRE(r.reward == Approx(reward).epsilon(1e-6));
    REQUIRE(obs[0] == static_cast<float>(env.state()[0]));
  }
  CHECK(done);
}

TEST_CASE("mountaincar-continuous goal, clips and left wall", "[classic]") {
  MountainCarContinuous env;
  float obs[2];
  env.reset(1, obs);
  // Reaching x >= 0.45 while moving right pays 100 minus the action cost.
  const double arriving[2] = {0.44, 0.02};
  env.set_state(arriving);
  StepResult r = env.step(cont(0.5f), obs);
  CHECK(env.state()[0] >= 0.45);
  CHECK(r.terminated);
  CHECK(r.reward == Approx(100.0 - 0.025).epsilon(1e-7));
  // Beyond 0.45 but moving left: no goal.
  const double back[2] = {0.47, -0.001};
  env.set_state(back);
  r = env.step(cont(0.0f), obs);
  CHECK_FALSE(r.terminated);
  CHECK(r.reward == 0.0f);
  // Velocity clip at 0.07 and position clip at 0.6.
  const double fast[2] = {0.59, 0.0695};
  env.set_state(fast);
  env.step(cont(1.0f), obs);
  CHECK(env.state()[1] == 0.07);
  CHECK(env.state()[0] == 0.6);
  // Left wall: clipped to -1.2 with the velocity zeroed.
  const double wall[2] = {-1.19, -0.05};
  env.set_state(wall);
  r = env.step(cont(-1.0f), obs);
  CHECK(env.state()[0] == -1.2);
  CHECK(env.state()[1] == 0.0);
  CHECK_FALSE(r.terminated);
}

TEST_CASE("registry mountaincar-continuous truncates at 999 steps and reseeds", "[classic]") {
  auto env = EnvRegistry::builtin().make("mountaincar-continuous");
  CHECK(env->spec().max_episode_steps == 999);
  CHECK(env->spec().action == ActionSpec::box({-1.f}, {1.f}));
  StepResult last;
  CHECK(run_until_done(*env, cont(0.0f), last) == 999);  // coasting never reaches the flag
  CHECK(last.truncated);
  CHECK_FALSE(last.terminated);
  MountainCarContinuous raw;
  float obs[2];
  raw.reset(4, obs);
  for (int i = 0; i < 100; ++i) {
    raw.reset(std::nullopt, obs);
    REQUIRE(raw.state()[0] >= -0.6);
    REQUIRE(raw.state()[0] < -0.4);
    REQUIRE(raw.state()[1] == 0.0);
  }
  check_seeding("mountaincar-continuous", cont(0.7f));
}

// ============================== Pendulum =====================================

TEST_CASE("pendulum hand-computed transitions", "[classic]") {
  Pendulum env;
  CHECK(env.spec().name == "pendulum");
  CHECK(env.spec().observation == ArraySpec{{3}, DType::kFloat32});
  CHECK(env.spec().action == ActionSpec::box({-2.f}, {2.f}));
  float obs[3];
  env.reset(1, obs);
  // Upright at rest, torque 1: cost 0.001, thdot = 3*1*0.05 = 0.15, th = 0.0075.
  const double up[2] = {0.0, 0.0};
  env.set_state(up);
  StepResult r = env.step(cont(1.0f), obs);
  CHECK(r.reward == Approx(-0.001).epsilon(1e-6));
  CHECK(env.state()[1] == near(0.15));
  CHECK(env.state()[0] == near(0.0075));
  CHECK(obs[0] == static_cast<float>(std::cos(0.0075)));
  CHECK(obs[1] == static_cast<float>(std::sin(0.0075)));
  CHECK(obs[2] == 0.15f);
  CHECK_FALSE(r.terminated);
  CHECK_FALSE(r.truncated);
  // Horizontal at rest, no torque: thdot = 15*0.05 = 0.75, cost (pi/2)^2.
  const double level[2] = {kPi / 2, 0.0};
  env.set_state(level);
  r = env.step(cont(0.0f), obs);
  CHECK(r.reward == Approx(-kPi * kPi / 4).epsilon(1e-6));
  CHECK(env.state()[1] == near(0.75));
  CHECK(env.state()[0] == near(kPi / 2 + 0.0375));
  // The cost uses the state before the step: theta_dot 2 and torque -2.
  const double moving[2] = {0.1, 2.0};
  env.set_state(moving);
  r = env.step(cont(-2.0f), obs);
  CHECK(r.reward == Approx(-(0.01 + 0.4 + 0.004)).epsilon(1e-6));
  CHECK(env.state()[1] == near(2.0 + (15 * std::sin(0.1) - 6.0) * 0.05));
}

TEST_CASE("pendulum clips the torque and the speed", "[classic]") {
  Pendulum env;
  float obs[3];
  env.reset(1, obs);
  const double s[2] = {0.7, -0.3};
  double clipped[2], reward_clipped;
  env.set_state(s);
  reward_clipped = env.step(cont(2.0f), obs).reward;
  clipped[0] = env.state()[0];
  clipped[1] = env.state()[1];
  env.set_state(s);
  CHECK(env.step(cont(5.0f), obs).reward == reward_clipped);  // cost uses the clipped torque
  CHECK(env.state()[0] == clipped[0]);
  CHECK(env.state()[1] == clipped[1]);
  env.set_state(s);
  const float neg = env.step(cont(-2.0f), obs).reward;
  const double neg_th = env.state()[0];
  env.set_state(s);
  CHECK(env.step(cont(-40.0f), obs).reward == neg);
  CHECK(env.state()[0] == neg_th);
  // 7.9 + (15 + 6) * 0.05 = 8.95 clips to 8; the angle moves with the clipped speed.
  const double fast[2] = {kPi / 2, 7.9};
  env.set_state(fast);
  env.step(cont(2.0f), obs);
  CHECK(env.state()[1] == 8.0);
  CHECK(env.state()[0] == near(kPi / 2 + 0.4));
  const double fast_neg[2] = {-kPi / 2, -7.9};
  env.set_state(fast_neg);
  env.step(cont(-2.0f), obs);
  CHECK(env.state()[1] == -8.0);
}

TEST_CASE("pendulum angle normalisation is a floored modulo", "[classic]") {
  CHECK(Pendulum::angle_normalize(0.3) == near(0.3));
  CHECK(Pendulum::angle_normalize(2 * kPi + 0.3) == near(0.3));
  CHECK(Pendulum::angle_normalize(-4 * kPi - 0.2) == near(-0.2));
  CHECK(Pendulum::angle_normalize(3 * kPi / 2) == near(-kPi / 2));
  CHECK(Pendulum::angle_normalize(-3 * kPi / 2) == near(kPi / 2));
  CHECK(Pendulum::angle_normalize(-kPi) == near(-kPi));  // [-pi, pi)
  // Through the reward: theta = 3pi/2 (hanging to the side) costs (pi/2)^2.
  Pendulum env;
  float obs[3];
  env.reset(1, obs);
  const double s[2] = {3 * kPi / 2, 0.0};
  env.set_state(s);
  CHECK(env.step(cont(0.0f), obs).reward == Approx(-kPi * kPi / 4).epsilon(1e-6));
  const double wound[2] = {10 * kPi + 0.5, 0.0};  // five turns: cost of 0.5
  env.set_state(wound);
  CHECK(env.step(cont(0.0f), obs).reward == Approx(-0.25).epsilon(1e-6));
}

TEST_CASE("pendulum transitions match the reference equations", "[classic]") {
  Pendulum env;
  float obs[3];
  env.reset(8, obs);
  double ref[2] = {env.state()[0], env.state()[1]};
  for (int t = 0; t < 200; ++t) {
    // Energy pumping with torques inside and beyond the [-2, 2] box.
    const float u = static_cast<float>((ref[1] >= 0 ? 1.0 : -1.0) * (0.5 + 0.5 * (t % 6)));
    const double reward = pendulum_step(ref, u);
    const StepResult r = env.step(cont(u), obs);
    REQUIRE(env.state()[0] == Approx(ref[0]).epsilon(1e-10).margin(1e-10));
    REQUIRE(env.state()[1] == Approx(ref[1]).epsilon(1e-10).margin(1e-10));
    REQUIRE(r.reward == Approx(reward).epsilon(1e-6).margin(1e-6));
    REQUIRE_FALSE(r.terminated);
    REQUIRE(obs[0] == static_cast<float>(std::cos(env.state()[0])));
    REQUIRE(obs[1] == static_cast<float>(std::sin(env.state()[0])));
    REQUIRE(obs[2] == static_cast<float>(env.state()[1]));
  }
  CHECK(std::abs(ref[0]) > 2 * kPi);  // swung over the top: the angle is not wrapped
}

TEST_CASE("pendulum reset range", "[classic]") {
  Pendulum env;
  float obs[3];
  env.reset(12, obs);
  double lo[2] = {9, 9}, hi[2] = {-9, -9};
  for (int i = 0; i < 300; ++i) {
    env.reset(std::nullopt, obs);
    const double th = env.state()[0], w = env.state()[1];
    REQUIRE(th >= -kPi);
    REQUIRE(th < kPi);
    REQUIRE(w >= -1.0);
    REQUIRE(w < 1.0);
    REQUIRE(obs[2] == static_cast<float>(w));
    lo[0] = std::fmin(lo[0], th), hi[0] = std::fmax(hi[0], th);
    lo[1] = std::fmin(lo[1], w), hi[1] = std::fmax(hi[1], w);
  }
  CHECK(lo[0] < -3.0);
  CHECK(hi[0] > 3.0);
  CHECK(lo[1] < -0.95);
  CHECK(hi[1] > 0.95);
}

TEST_CASE("registry pendulum truncates at 200 steps and reseeds reproducibly", "[classic]") {
  const auto& reg = EnvRegistry::builtin();
  for (const char* name : {"cartpole", "acrobot", "mountaincar", "mountaincar-continuous", "pendulum"})
    CHECK(reg.contains(name));
  auto env = reg.make("pendulum");
  CHECK(env->spec().max_episode_steps == 200);
  StepResult last;
  CHECK(run_until_done(*env, cont(2.0f), last) == 200);
  CHECK(last.truncated);
  CHECK_FALSE(last.terminated);
  check_seeding("pendulum", cont(-1.3f));
}
