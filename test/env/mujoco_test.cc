// MuJoCo locomotion envs against Gymnasium v4's published rules: observation
// slices, reward terms recomputed from mjData, health ranges, frame skip,
// reset noise, the 1000-step limit and asset lookup.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "seedrl/env/registry.h"

#if SEEDRL_HAVE_MUJOCO

#include <mujoco/mujoco.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "seedrl/env/mujoco/ant.h"
#include "seedrl/env/mujoco/half_cheetah.h"
#include "seedrl/env/mujoco/hopper.h"
#include "seedrl/env/mujoco/model_loader.h"
#include "seedrl/env/mujoco/walker2d.h"
#include "seedrl/util/rng.h"

using namespace seedrl;
namespace fs = std::filesystem;

namespace {

// Gymnasium v4's published numbers, typed in independently of the env code.
struct Published {
  std::string name;
  int obs_dim, act_dim;
  double timestep;  // from the model XML
  int frame_skip;
  double ctrl_cost_weight, healthy_reward, reset_noise_scale;
  bool normal_qvel_noise;
};

const std::vector<Published>& published() {
  static const std::vector<Published> p = {
      {"mujoco:halfcheetah", 17, 6, 0.01, 5, 0.1, 0.0, 0.1, true},
      {"mujoco:hopper", 11, 3, 0.002, 4, 1e-3, 1.0, 5e-3, false},
      {"mujoco:walker2d", 17, 6, 0.002, 4, 1e-3, 1.0, 5e-3, false},
      {"mujoco:ant", 27, 8, 0.01, 5, 0.5, 1.0, 0.1, true},
  };
  return p;
}

std::unique_ptr<MujocoEnv> make_direct(const std::string& name) {
  if (name == "mujoco:halfcheetah") return std::make_unique<HalfCheetah>();
  if (name == "mujoco:hopper") return std::make_unique<Hopper>();
  if (name == "mujoco:walker2d") return std::make_unique<Walker2d>();
  return std::make_unique<Ant>();
}

// The position whose rate of change is rewarded: qpos[0], or for Ant the
// torso's frame position as Gymnasium's get_body_com reads it.
double forward_position(const std::string& name, const mjModel* m, const mjData* d) {
  if (name != "mujoco:ant") return d->qpos[0];
  return d->xpos[3 * mj_name2id(m, mjOBJ_BODY, "torso")];
}

// Gymnasium's is_healthy, written out from the v4 sources' ranges.
bool reference_healthy(const std::string& name, const mjModel* m, const mjData* d) {
  const double* q = d->qpos;
  if (name == "mujoco:hopper") {
    for (int i = 2; i < m->nq; ++i)
      if (!(-100.0 < q[i] && q[i] < 100.0)) return false;
    for (int i = 0; i < m->nv; ++i)
      if (!(-100.0 < d->qvel[i] && d->qvel[i] < 100.0)) return false;
    return 0.7 < q[1] && -0.2 < q[2] && q[2] < 0.2;
  }
  if (name == "mujoco:walker2d") return 0.8 < q[1] && q[1] < 2.0 && -1.0 < q[2] && q[2] < 1.0;
  if (name == "mujoco:ant") {
    for (int i = 0; i < m->nq; ++i)
      if (!std::isfinite(q[i])) return false;
    for (int i = 0; i < m->nv; ++i)
      if (!std::isfinite(d->qvel[i])) return false;
    return 0.2 <= q[2] && q[2] <= 1.0;
  }
  return true;  // HalfCheetah has no health rule
}

std::vector<float> random_action(Rng& rng, int dim) {
  std::vector<float> a(dim);
  for (float& x : a) x = static_cast<float>(rng.uniform(-1.0, 1.0));
  return a;
}

std::vector<double> copy_of(const double* p, int n) { return std::vector<double>(p, p + n); }

// Sets an environment variable for one scope and restores it afterwards.
class ScopedEnvVar {
 public:
  ScopedEnvVar(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnvVar() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

fs::path fresh_temp_dir(const std::string& tag) {
  fs::path dir = fs::temp_directory_path() / ("seedrl_mujoco_" + tag + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "mujoco");
  return dir;
}

}  // namespace

TEST_CASE("mujoco envs register with Gymnasium v4's specs and shapes", "[mujoco]") {
  const auto& reg = EnvRegistry::builtin();
  for (const Published& p : published()) {
    INFO(p.name);
    REQUIRE(reg.contains(p.name));
    auto env = reg.make(p.name);
    const EnvSpec& spec = env->spec();
    CHECK(spec.name == p.name);
    CHECK(spec.observation == ArraySpec{{p.obs_dim}, DType::kFloat32});
    CHECK(spec.max_episode_steps == 1000);
    REQUIRE_FALSE(spec.action.is_discrete());
    REQUIRE(spec.action.dim == p.act_dim);
    for (int i = 0; i < p.act_dim; ++i) {
      CHECK(spec.action.low[i] == -1.0f);  // every actuator's ctrlrange is [-1, 1]
      CHECK(spec.action.high[i] == 1.0f);
    }
    // One guard float past the observation must stay untouched.
    const float guard = -12345.f;
    std::vector<float> obs(p.obs_dim + 1, guard);
    env->reset(3, obs.data());
    CHECK(obs.back() == guard);
    for (int i = 0; i < p.obs_dim; ++i) CHECK(std::isfinite(obs[i]));
    std::vector<float> zero(p.act_dim, 0.f);
    StepResult r = env->step(Action{0, zero.data()}, obs.data());
    CHECK(obs.back() == guard);
    for (int i = 0; i < p.obs_dim; ++i) CHECK(std::isfinite(obs[i]));
    CHECK_FALSE(r.truncated);
    CHECK_FALSE(r.terminated);
  }
}

TEST_CASE("mujoco observations are the documented qpos/qvel slices", "[mujoco]") {
  Rng rng(5);
  for (const Published& p : published()) {
    INFO(p.name);
    auto env = make_direct(p.name);
    const mjModel* m = env->model();
    const mjData* d = env->data();
    // HalfCheetah/Walker2d drop rootx; Hopper too; Ant drops x and y.
    const int skip = p.name == "mujoco:ant" ? 2 : 1;
    const bool clip = p.name == "mujoco:hopper" || p.name == "mujoco:walker2d";
    REQUIRE(m->nq - skip + m->nv == p.obs_dim);
    std::vector<float> obs(p.obs_dim);
    auto check_obs = [&] {
      for (int i = skip; i < m->nq; ++i) REQUIRE(obs[i - skip] == static_cast<float>(d->qpos[i]));
      for (int i = 0; i < m->nv; ++i) {
        const double v = clip ? std::clamp(d->qvel[i], -10.0, 10.0) : d->qvel[i];
        REQUIRE(obs[m->nq - skip + i] == static_cast<float>(v));
      }
    };
    env->reset(11, obs.data());
    check_obs();
    for (int t = 0; t < 5; ++t) {
      auto a = random_action(rng, p.act_dim);
      env->step(Action{0, a.data()}, obs.data());
      check_obs();
    }
    // A fast x velocity: clipped to 10 for Hopper and Walker2d only.
    auto qpos = copy_of(m->qpos0, m->nq);
    std::vector<double> qvel(m->nv, 0.0);
    qvel[0] = 30.0;
    env->set_state(qpos, qvel, obs.data());
    CHECK(obs[m->nq - skip] == (clip ? 10.0f : 30.0f));
    check_obs();
  }
}

TEST_CASE("mujoco reset noise follows each task's rule", "[mujoco]") {
  for (const Published& p : published()) {
    INFO(p.name);
    auto env = make_direct(p.name);
    const mjModel* m = env->model();
    const mjData* d = env->data();
    const double s = p.reset_noise_scale;
    std::vector<float> obs(p.obs_dim);
    double max_qpos_dev = 0, max_qvel = 0, sum_qvel_sq = 0;
    int n_qvel = 0;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      env->reset(seed, obs.data());
      for (int i = 0; i < m->nq; ++i) {
        // Ant's free-joint quaternion (qpos[3:7]) gets the same noise, but
        // MuJoCo renormalises it in place when the state is set.
        if (p.name == "mujoco:ant" && i >= 3 && i < 7) continue;
        const double dev = d->qpos[i] - m->qpos0[i];
        REQUIRE(std::abs(dev) <= s);  // uniform in [-s, s) around the model's qpos0
        max_qpos_dev = std::max(max_qpos_dev, std::abs(dev));
      }
      if (p.name == "mujoco:ant") {
        const double* quat = d->qpos + 3;
        CHECK(quat[0] * quat[0] + quat[1] * quat[1] + quat[2] * quat[2] + quat[3] * quat[3] == Approx(1.0));
        CHECK(quat[1] != 0.0);  // noised, qpos0's quaternion is (1, 0, 0, 0)
      }
      for (int i = 0; i < m->nv; ++i) {
        max_qvel = std::max(max_qvel, std::abs(d->qvel[i]));
        sum_qvel_sq += d->qvel[i] * d->qvel[i];
        ++n_qvel;
      }
    }
    CHECK(max_qpos_dev > 0.8 * s);
    if (p.normal_qvel_noise) {
      // s * N(0, 1): some draws exceed s, and the variance is about s^2.
      CHECK(max_qvel > 1.5 * s);
      CHECK(sum_qvel_sq / n_qvel == Approx(s * s).epsilon(0.25));
    } else {
      // U(-s, s): bounded by s, variance s^2 / 3.
      CHECK(max_qvel <= s);
      CHECK(sum_qvel_sq / n_qvel == Approx(s * s / 3).epsilon(0.25));
    }
  }
}

TEST_CASE("mujoco rewards decompose into forward, healthy and control terms", "[mujoco]") {
  Rng rng(17);
  for (const Published& p : published()) {
    INFO(p.name);
    auto env = make_direct(p.name);
    const mjModel* m = env->model();
    const mjData* d = env->data();
    REQUIRE(m->opt.timestep == p.timestep);
    const double dt = p.timestep * p.frame_skip;
    CHECK(env->dt() == Approx(dt).epsilon(1e-15));
    // A second mjData, stepped by hand, checks the frame skip and controls.
    std::unique_ptr<mjData, void (*)(mjData*)> shadow(mj_makeData(m), mj_deleteData);
    std::vector<float> obs(p.obs_dim);
    env->reset(23, obs.data());
    for (int t = 0; t < 40; ++t) {
      auto a = random_action(rng, p.act_dim);
      mj_copyData(shadow.get(), m, d);
      const double before = forward_position(p.name, m, d);
      const StepResult r = env->step(Action{0, a.data()}, obs.data());
      const double after = forward_position(p.name, m, d);

      for (int i = 0; i < m->nu; ++i) shadow->ctrl[i] = a[i];
      for (int k = 0; k < p.frame_skip; ++k) mj_step(m, shadow.get());
      for (int i = 0; i < m->nq; ++i) REQUIRE(d->qpos[i] == shadow->qpos[i]);
      for (int i = 0; i < m->nv; ++i) REQUIRE(d->qvel[i] == shadow->qvel[i]);

      double sq = 0;
      for (float x : a) sq += static_cast<double>(x) * x;
      const double expected = (after - before) / dt + p.healthy_reward - p.ctrl_cost_weight * sq;
      REQUIRE(r.reward == Approx(expected).epsilon(1e-6).margin(1e-5));
      REQUIRE(r.terminated == !reference_healthy(p.name, m, d));
      if (r.terminated) break;
    }
  }
}

TEST_CASE("hopper and walker2d fall and terminate by Gymnasium's health rule", "[mujoco]") {
  for (const std::string name : {"mujoco:hopper", "mujoco:walker2d"}) {
    INFO(name);
    auto env = make_direct(name);
    const mjModel* m = env->model();
    const mjData* d = env->data();
    std::vector<float> obs(env->spec().observation.numel());
    std::vector<float> zero(m->nu, 0.f);
    env->reset(1, obs.data());
    int steps = 0;
    StepResult r;
    do {
      r = env->step(Action{0, zero.data()}, obs.data());
      ++steps;
      REQUIRE(r.terminated == !reference_healthy(name, m, d));
    } while (!r.terminated && steps < 1000);
    // Unactuated, both topple well before the time limit.
    CHECK(r.terminated);
    CHECK(steps < 300);
  }
}

TEST_CASE("mujoco health rule cases", "[mujoco]") {
  std::vector<float> obs(27);
  auto step_from = [&](MujocoEnv& env, std::vector<double> qpos, std::vector<double> qvel) {
    env.set_state(qpos, qvel, obs.data());
    std::vector<float> zero(env.spec().action.dim, 0.f);
    return env.step(Action{0, zero.data()}, obs.data());
  };
  SECTION("hopper: torso angle beyond 0.2 rad, and any state entry beyond 100") {
    Hopper env;
    const mjModel* m = env.model();
    std::vector<double> q = copy_of(m->qpos0, m->nq), v(m->nv, 0.0);
    CHECK_FALSE(step_from(env, q, v).terminated);
    q[2] = 0.3;
    CHECK(step_from(env, q, v).terminated);
    q[2] = 0.0;
    v[0] = 150.0;  // x velocity counts in the state range (only x and z positions are exempt)
    StepResult r = step_from(env, q, v);
    CHECK(r.terminated);
    CHECK(r.reward == Approx(150.0 + 1.0).epsilon(1e-3));  // healthy reward paid on the last step
    v[0] = 90.0;
    CHECK_FALSE(step_from(env, q, v).terminated);
    // Legs folded clear of the floor, torso held upright: only the height matters.
    v[0] = 0.0;
    q[3] = -1.5, q[4] = -1.0;
    q[1] = 0.72;
    CHECK_FALSE(step_from(env, q, v).terminated);
    REQUIRE(env.data()->ncon == 0);
    q[1] = 0.68;
    CHECK(step_from(env, q, v).terminated);
  }
  SECTION("walker2d: height in (0.8, 2.0), angle in (-1, 1)") {
    Walker2d env;
    const mjModel* m = env.model();
    std::vector<double> q = copy_of(m->qpos0, m->nq), v(m->nv, 0.0);
    q[1] = 1.9;  // in the air, still below the 2.0 ceiling after one step
    CHECK_FALSE(step_from(env, q, v).terminated);
    q[1] = 2.5;
    CHECK(step_from(env, q, v).terminated);
    q[1] = 1.25;
    q[2] = 0.9;
    CHECK_FALSE(step_from(env, q, v).terminated);
    q[2] = -1.1;
    CHECK(step_from(env, q, v).terminated);
  }
  SECTION("ant: torso height in [0.2, 1.0]") {
    Ant env;
    const mjModel* m = env.model();
    std::vector<double> q = copy_of(m->qpos0, m->nq), v(m->nv, 0.0);
    CHECK_FALSE(step_from(env, q, v).terminated);
    q[2] = 0.95;
    CHECK_FALSE(step_from(env, q, v).terminated);
    q[2] = 1.5;
    CHECK(step_from(env, q, v).terminated);
  }
  SECTION("halfcheetah never terminates, even upside down") {
    HalfCheetah env;
    const mjModel* m = env.model();
    std::vector<double> q = copy_of(m->qpos0, m->nq), v(m->nv, 0.0);
    q[1] = 0.3;
    q[2] = 3.14159;
    CHECK_FALSE(step_from(env, q, v).terminated);
  }
}

TEST_CASE("halfcheetah runs to the 1000-step time limit", "[mujoco]") {
  auto env = EnvRegistry::builtin().make("mujoco:halfcheetah");
  Rng rng(3);
  std::vector<float> obs(17);
  env->reset(8, obs.data());
  int steps = 0;
  StepResult r;
  do {
    auto a = random_action(rng, 6);
    r = env->step(Action{0, a.data()}, obs.data());
    ++steps;
    REQUIRE_FALSE(r.terminated);
  } while (!r.truncated);
  CHECK(steps == 1000);
}

TEST_CASE("mujoco envs reproduce exactly from a seed", "[mujoco]") {
  const auto& reg = EnvRegistry::builtin();
  for (const Published& p : published()) {
    INFO(p.name);
    auto a = reg.make(p.name), b = reg.make(p.name);
    std::vector<float> oa(p.obs_dim), ob(p.obs_dim), first(p.obs_dim);
    a->reset(42, oa.data());
    b->reset(42, ob.data());
    CHECK(oa == ob);
    first = oa;
    Rng rng(9);
    for (int t = 0; t < 30; ++t) {
      auto act = random_action(rng, p.act_dim);
      const StepResult ra = a->step(Action{0, act.data()}, oa.data());
      const StepResult rb = b->step(Action{0, act.data()}, ob.data());
      REQUIRE(oa == ob);
      REQUIRE(ra.reward == rb.reward);
      REQUIRE(ra.terminated == rb.terminated);
      if (ra.terminated) break;
    }
    b->reset(43, ob.data());
    CHECK(ob != first);
    a->reset(std::nullopt, oa.data());  // the stream continues: a new start state
    CHECK(oa != first);
    a->reset(42, oa.data());
    CHECK(oa == first);
  }
}

TEST_CASE("mujoco envs of one kind share one model", "[mujoco]") {
  Hopper h1, h2;
  CHECK(h1.model() == h2.model());
  CHECK(h1.data() != h2.data());
  CHECK(MujocoModelLoader::process_wide().load("hopper.xml").get() == h1.model());
  Walker2d w;
  CHECK(w.model() != h1.model());
}

TEST_CASE("mujoco models load from SEEDRL_ASSETS_DIR first", "[mujoco]") {
  // A copy of hopper.xml with a doubled timestep tells which file was loaded.
  std::stringstream text;
  text << std::ifstream(MujocoModelLoader().resolve("hopper.xml")).rdbuf();
  std::string xml = text.str();
  const std::string from = "timestep=\"0.002\"";
  const auto at = xml.find(from);
  REQUIRE(at != std::string::npos);
  xml.replace(at, from.size(), "timestep=\"0.004\"");
  const fs::path dir = fresh_temp_dir("assets");
  std::ofstream(dir / "mujoco" / "hopper.xml") << xml;

  {
    ScopedEnvVar var("SEEDRL_ASSETS_DIR", dir.string());
    CHECK(default_asset_dirs().front() == dir);
    MujocoModelLoader loader;
    CHECK(loader.resolve("hopper.xml") == dir / "mujoco" / "hopper.xml");
    Hopper env(loader.load("hopper.xml"));
    CHECK(env.model()->opt.timestep == 0.004);
    CHECK(env.dt() == Approx(0.016));
    CHECK(loader.load("hopper.xml").get() == env.model());  // cached
  }
  // Without the variable the bundled model is found again.
  CHECK(MujocoModelLoader().load("hopper.xml")->opt.timestep == 0.002);
  fs::remove_all(dir);
}

TEST_CASE("mujoco model lookup fails clearly", "[mujoco]") {
  SECTION("a missing file names every path tried") {
    MujocoModelLoader loader({"/nonexistent/seedrl-a", "/nonexistent/seedrl-b"});
    try {
      loader.load("hopper.xml");
      FAIL("expected an error");
    } catch (const std::runtime_error& e) {
      CHECK_THAT(e.what(), Catch::Contains("/nonexistent/seedrl-a/mujoco/hopper.xml") &&
                               Catch::Contains("/nonexistent/seedrl-b/mujoco/hopper.xml") &&
                               Catch::Contains("SEEDRL_ASSETS_DIR"));
    }
  }
  SECTION("a wrong SEEDRL_ASSETS_DIR is searched first and named") {
    ScopedEnvVar var("SEEDRL_ASSETS_DIR", "/nonexistent/seedrl-assets");
    try {
      MujocoModelLoader().load("no_such_model.xml");
      FAIL("expected an error");
    } catch (const std::runtime_error& e) {
      const std::string msg = e.what();
      const auto first = msg.find("/nonexistent/seedrl-assets/mujoco/no_such_model.xml");
      CHECK(first != std::string::npos);
      CHECK(msg.find("mujoco/no_such_model.xml", first + 1) != std::string::npos);  // fallbacks
    }
  }
  SECTION("a malformed model and a model of the wrong kind") {
    const fs::path dir = fresh_temp_dir("bad");
    std::ofstream(dir / "mujoco" / "broken.xml") << "<mujoco><worldbody><body>";
    MujocoModelLoader loader({dir});
    CHECK_THROWS_WITH(loader.load("broken.xml"), Catch::Contains("cannot load MuJoCo model"));
    fs::remove_all(dir);
    auto hopper_model = MujocoModelLoader::process_wide().load("hopper.xml");
    CHECK_THROWS_WITH(Ant(hopper_model), Catch::Contains("nq=6, expected 15"));
  }
}

#else  // !SEEDRL_HAVE_MUJOCO

TEST_CASE("mujoco envs say they need MuJoCo", "[mujoco]") {
  for (const char* name : {"mujoco:halfcheetah", "mujoco:hopper", "mujoco:walker2d", "mujoco:ant"}) {
    REQUIRE(seedrl::EnvRegistry::builtin().contains(name));
    CHECK_THROWS_WITH(seedrl::EnvRegistry::builtin().make(name), Catch::Contains("without libmujoco"));
  }
}

#endif  // SEEDRL_HAVE_MUJOCO
