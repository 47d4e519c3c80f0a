// An env that throws mid-run (an emulator error, a simulator that diverged)
// ends its actor thread, not the process: the pool says it failed, so that
// the run stops, and the other threads keep stepping until they are told to
// stop, then join.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstring>
#include <memory>
#include <span>
#include <stdexcept>

#include "../util/wait_until.h"
#include "seedrl/actor/actor_pool.h"

using namespace seedrl;

namespace {

// float[4] observations, two actions; the env made `fail_index`-th (0-based)
// by its registry throws at its `fail_step`-th step.
class CountingEnv final : public Env {
 public:
  explicit CountingEnv(int fail_step) : fail_step_(fail_step) {
    spec_.name = "counting";
    spec_.observation = ArraySpec{{4}, DType::kFloat32};
    spec_.action = ActionSpec::discrete(2);
  }
  const EnvSpec& spec() const override { return spec_; }
  void reset(std::optional<std::uint64_t>, void* obs) override { std::memset(obs, 0, 4 * sizeof(float)); }
  StepResult step(const Action&, void* obs) override {
    if (++steps_ == fail_step_) throw std::runtime_error("simulator diverged (injected)");
    std::memset(obs, 0, 4 * sizeof(float));
    return {1.f, steps_ % 50 == 0, false};
  }

 private:
  EnvSpec spec_;
  int fail_step_;
  int steps_ = 0;
};

// Answers every step at once with action 0, as inference would.
class ImmediateSource final : public ActionSource {
 public:
  bool submit(std::span<EnvStep> steps, Completion&) override {
    for (EnvStep& s : steps) s.action[0] = 0;
    return true;
  }
};

}  // namespace

TEST_CASE("an actor whose env throws mid-run fails the pool, the other actors step on and join", "[actor]") {
  constexpr int kFailIndex = 5, kFailStep = 200;
  EnvRegistry registry;
  auto made = std::make_shared<std::atomic<int>>(0);
  registry.add("counting", "test env", [made](const EnvOptions&) -> EnvPtr {
    return std::make_unique<CountingEnv>(made->fetch_add(1) == kFailIndex ? kFailStep : -1);
  });
  ActorPoolConfig c;
  c.env = "counting";
  c.actors = 8;
  c.envs_per_actor = 2;
  c.registry = &registry;
  ImmediateSource source;
  EpisodeStats stats;
  std::atomic<std::int64_t> frames{0};
  ActorPool pool(c, source, stats, frames);
  pool.start();
  REQUIRE(test::wait_until([&] { return pool.failed(); }));
  // The seven other threads go on; the run's owner stops them.
  const std::int64_t at_failure = frames.load();
  CHECK(at_failure >= kFailStep - 1);
  CHECK(test::wait_until([&] { return frames.load() >= at_failure + 100000; }));
  pool.request_stop();
  pool.join();  // returns: every thread joined
  CHECK(pool.failed());
  CHECK(made->load() == 16);
}
