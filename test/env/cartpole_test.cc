#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "seedrl/env/classic/cartpole.h"
#include "seedrl/env/registry.h"

using namespace seedrl;

namespace {
// Gymnasium's CartPole-v1 step written out independently, in double precision.
void reference_step(double s[4], int action) {
  const double g = 9.8, mc = 1.0, mp = 0.1, l = 0.5, tau = 0.02;
  const double f = action == 1 ? 10.0 : -10.0;
  const double ct = std::cos(s[2]), st = std::sin(s[2]);
  const double temp = (f + mp * l * s[3] * s[3] * st) / (mc + mp);
  const double tacc = (g * st - ct * temp) / (l * (4.0 / 3.0 - mp * ct * ct / (mc + mp)));
  const double xacc = temp - mp * l * tacc * ct / (mc + mp);
  s[0] += tau * s[1];
  s[1] += tau * xacc;
  s[2] += tau * s[3];
  s[3] += tau * tacc;
}
}  // namespace

TEST_CASE("cartpole transitions match Gymnasium's equations", "[env][cartpole]") {
  CartPole env;
  float obs[4];
  env.reset(123, obs);
  double ref[4];
  for (int i = 0; i < 4; ++i) {
    ref[i] = env.state()[i];
    REQUIRE(std::abs(ref[i]) <= 0.05);
    REQUIRE(obs[i] == static_cast<float>(ref[i]));
  }
  int actions[] = {1, 1, 0, 1, 0, 0, 0, 1, 1, 1};
  for (int a : actions) {
    reference_step(ref, a);
    StepResult r = env.step(Action{a, nullptr}, obs);
    REQUIRE(r.reward == 1.0f);
    for (int i = 0; i < 4; ++i) REQUIRE(env.state()[i] == Approx(ref[i]).epsilon(1e-12));
  }
}

TEST_CASE("cartpole terminates past the angle and position thresholds", "[env][cartpole]") {
  CartPole env;
  float obs[4];
  env.reset(1, obs);
  const double tilted[4] = {0.0, 0.0, 0.2094, 2.0};  // theta crosses 12 degrees this step
  env.set_state(tilted);
  StepResult r = env.step(Action{1, nullptr}, obs);
  CHECK(r.terminated);
  CHECK(r.reward == 1.0f);
  const double off_track[4] = {2.399, 1.0, 0.0, 0.0};
  env.set_state(off_track);
  CHECK(env.step(Action{0, nullptr}, obs).terminated);
  const double fine[4] = {0.0, 0.0, 0.0, 0.0};
  env.set_state(fine);
  CHECK_FALSE(env.step(Action{0, nullptr}, obs).terminated);
}

TEST_CASE("registry cartpole truncates at 500 steps and reseeds reproducibly", "[env][cartpole]") {
  const auto& reg = EnvRegistry::builtin();
  auto env = reg.make("cartpole");
  CHECK(env->spec().max_episode_steps == 500);
  float obs[4];
  env->reset(7, obs);
  // Hold the pole up with a simple controller until the time limit.
  int steps = 0;
  StepResult r;
  do {
    const int a = (obs[2] + 0.5f * obs[3]) > 0 ? 1 : 0;
    r = env->step(Action{a, nullptr}, obs);
    ++steps;
  } while (!r.terminated && !r.truncated);
  CHECK(steps == 500);
  CHECK(r.truncated);
  CHECK_FALSE(r.terminated);

  auto a = reg.make("cartpole"), b = reg.make("cartpole");
  float oa[4], ob[4];
  a->reset(99, oa);
  b->reset(99, ob);
  for (int i = 0; i < 4; ++i) CHECK(oa[i] == ob[i]);
  a->reset(std::nullopt, oa);  // the stream continues: a new start state
  CHECK(oa[0] != ob[0]);
}

TEST_CASE("registry names the valid environments for an unknown name", "[env]") {
  try {
    EnvRegistry::builtin().make("cartpol");
    FAIL("expected an error");
  } catch (const std::invalid_argument& e) {
    CHECK_THAT(e.what(), Catch::Contains("cartpol") && Catch::Contains("cartpole"));
  }
}
