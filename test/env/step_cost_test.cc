// The start-up probe that tells cheap envs from expensive ones
// (--learner-cpus auto reserves learner CPUs only for cheap ones).
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "seedrl/env/registry.h"
#include "seedrl/env/step_cost.h"

using namespace seedrl;

namespace {
constexpr double kExpensive = 10'000;  // trainer/learner_cpus.h: kExpensiveEnvStepNs
}

TEST_CASE("the step-cost probe puts classic and MinAtar envs far below an expensive step", "[env][step_cost]") {
  // Their steps: bench/RESULTS.md, "Micro-benchmarks", BM_EnvStep. CPU time:
  // waiting for a CPU on a loaded machine does not count.
  for (const char* name : {"cartpole", "minatar:breakout", "minatar:space_invaders"}) {
    auto env = EnvRegistry::builtin().make(name, {});
    const double ns = measure_step_ns(*env, 1);
    INFO(name << ": " << ns << " ns");
    CHECK(ns > 0);
    CHECK(ns < kExpensive / 10);
  }
}

TEST_CASE("the step-cost probe keeps to its step and time budgets", "[env][step_cost]") {
  auto env = EnvRegistry::builtin().make("cartpole", {});
  // One step at most: its own wall time, well under a millisecond.
  CHECK(measure_step_ns(*env, 1, 1, 10.0) < 1e6);
  // A zero time budget still steps once and returns a finite figure.
  const double ns = measure_step_ns(*env, 1, 1 << 30, 0.0);
  CHECK(ns > 0);
  CHECK(ns < 1e6);
}

TEST_CASE("the step-cost probe counts the env's CPU time, not time the thread waits", "[env][step_cost]") {
  // A step that waits 5 ms for nothing, as a thread preempted on a loaded
  // machine does: in wall time it would look like an expensive env.
  class WaitingEnv : public Env {
   public:
    const EnvSpec& spec() const override { return inner_->spec(); }
    void reset(std::optional<std::uint64_t> seed, void* obs) override { inner_->reset(seed, obs); }
    StepResult step(const Action& action, void* obs) override {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      return inner_->step(action, obs);
    }

   private:
    EnvPtr inner_ = EnvRegistry::builtin().make("cartpole", {});
  } env;
  const double ns = measure_step_ns(env, 1, 4, 10.0);
  INFO(ns << " ns");
  CHECK(ns < 1e6);
}

#if SEEDRL_HAVE_MUJOCO
TEST_CASE("the step-cost probe finds a MuJoCo step expensive", "[env][step_cost][mujoco]") {
  // Hopper: 4 physics substeps a step, each solving contacts: far above the
  // threshold on any machine (bench/RESULTS.md, "Micro-benchmarks", BM_EnvStep).
  auto env = EnvRegistry::builtin().make("mujoco:hopper", {});
  const double ns = measure_step_ns(*env, 1);
  INFO(ns << " ns");
  CHECK(ns >= kExpensive);
}
#endif
