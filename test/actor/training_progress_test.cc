// Envs with a curriculum (TrainingProgress) hear the run's progress from the
// actor before each episode, through the wrappers, as the run-wide frame
// counter over the run's frames (the actor pool's envs, over --max-frames);
// envs of a stepper not told to follow it hear nothing.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <vector>

#include "../util/wait_until.h"
#include "seedrl/actor/actor_pool.h"
#include "seedrl/actor/env_stepper.h"
#include "seedrl/env/training_progress.h"
#include "seedrl/env/wrappers/action_repeat.h"
#include "seedrl/env/wrappers/frame_stack.h"
#include "seedrl/env/wrappers/time_limit.h"
#include "seedrl/inference/request_batcher.h"

using namespace seedrl;

namespace {

// Episodes of `length` steps; records the progress it was told at each reset
// (NaN: nothing since the last reset).
class CurriculumEnv final : public Env, public TrainingProgress {
 public:
  CurriculumEnv(int length, std::vector<double>* heard, std::mutex* mu = nullptr)
      : length_(length), heard_(heard), mu_(mu) {
    spec_.name = "curriculum";
    spec_.observation = ArraySpec{{1}, DType::kFloat32};
    spec_.action = ActionSpec::discrete(2);
  }
  const EnvSpec& spec() const override { return spec_; }
  void reset(std::optional<std::uint64_t>, void* obs) override {
    {
      std::unique_lock<std::mutex> lock;
      if (mu_ != nullptr) lock = std::unique_lock(*mu_);  // envs of many actor threads share `heard`
      heard_->push_back(told_);
    }
    told_ = -1;
    t_ = 0;
    *static_cast<float*>(obs) = 0;
  }
  StepResult step(const Action&, void* obs) override {
    *static_cast<float*>(obs) = static_cast<float>(++t_);
    return StepResult{0.f, t_ >= length_, false};
  }
  void set_training_progress(double fraction) override { told_ = fraction; }

 private:
  EnvSpec spec_;
  int length_;
  std::vector<double>* heard_;
  std::mutex* mu_;
  double told_ = -1;  // -1: not told
  int t_ = 0;
};

}  // namespace

TEST_CASE("the env stepper tells its envs the run's progress before each episode, through the wrappers",
          "[actor][envstep]") {
  std::vector<double> heard_bare, heard_wrapped;
  std::vector<EnvPtr> envs;
  envs.push_back(std::make_unique<CurriculumEnv>(2, &heard_bare));
  // Every wrapper make() may put around an env passes the progress on.
  EnvPtr wrapped = std::make_unique<CurriculumEnv>(3, &heard_wrapped);
  wrapped = std::make_unique<TimeLimit>(std::move(wrapped), 100);
  wrapped = std::make_unique<ActionRepeat>(std::move(wrapped), 1);
  wrapped = std::make_unique<FrameStack>(std::move(wrapped), 2);
  envs.push_back(std::move(wrapped));
  EnvStepper stepper(std::move(envs));
  float obs[2 * 2], rewards[2], actions[2] = {0, 0};
  std::uint8_t flags[2];
  stepper.bind(0, EnvPort{&obs[0], &rewards[0], &flags[0], &actions[0]});
  stepper.bind(1, EnvPort{&obs[2], &rewards[1], &flags[1], &actions[1]});

  // A resumed run: the counter starts where the checkpoint left it.
  std::atomic<std::int64_t> frames{250};
  constexpr std::int64_t kMaxFrames = 1000;
  stepper.follow_progress(frames, kMaxFrames);
  stepper.begin(1, 0);
  // Count frames as the actor pool does; every round adds what step() took.
  // Env 0 resets after rounds 2, 5, 8, ...; env 1 after 3, 7, 11, ...
  std::vector<std::int64_t> frames_at_round;
  for (int round = 0; round < 12; ++round) {
    frames_at_round.push_back(frames.load());
    frames.fetch_add(stepper.step() * 100);  // big strides, so the run ends in this test
  }
  // Each reset heard the counter as it stood when the stepper reset the env:
  // the first at 250, later ones at the rounds that reset.
  REQUIRE(heard_bare.size() == 5);  // begin + resets at rounds 2, 5, 8, 11
  CHECK(heard_bare[0] == Approx(0.25));
  CHECK(heard_bare[1] == Approx(static_cast<double>(frames_at_round[2]) / kMaxFrames));
  CHECK(heard_bare[2] == Approx(std::min(1.0, static_cast<double>(frames_at_round[5]) / kMaxFrames)));
  CHECK(heard_bare[4] == 1.0);         // past --max-frames: capped at the end
  REQUIRE(heard_wrapped.size() == 4);  // begin + resets at rounds 3, 7, 11
  CHECK(heard_wrapped[0] == Approx(0.25));
  CHECK(heard_wrapped[1] == Approx(static_cast<double>(frames_at_round[3]) / kMaxFrames));
  CHECK(heard_wrapped[3] == 1.0);
  for (std::size_t i = 1; i < heard_bare.size(); ++i) CHECK(heard_bare[i] >= heard_bare[i - 1]);

  // A stepper not told to follow the run leaves its envs at their start.
  std::vector<double> heard_alone;
  std::vector<EnvPtr> alone_envs;
  alone_envs.push_back(std::make_unique<CurriculumEnv>(2, &heard_alone));
  EnvStepper alone(std::move(alone_envs));
  alone.bind(0, EnvPort{&obs[0], &rewards[0], &flags[0], &actions[0]});
  alone.begin(1, 0);
  for (int round = 0; round < 6; ++round) alone.step();
  REQUIRE(heard_alone.size() == 3);
  for (const double h : heard_alone) CHECK(h == -1);

  CHECK_THROWS_AS(alone.follow_progress(frames, 0), std::invalid_argument);
}

TEST_CASE("every actor thread's envs hear the run's progress over --max-frames at their first episode",
          "[actor][envstep]") {
  std::mutex mu;
  std::vector<double> heard;
  EnvRegistry registry;
  registry.add("curriculum", "records what it is told",
               [&](const EnvOptions&) { return std::make_unique<CurriculumEnv>(5, &heard, &mu); });
  const auto run = [&](std::int64_t max_frames) {
    heard.clear();
    RequestBatcher batcher(ArraySpec{{1}, DType::kFloat32}, 8, std::chrono::microseconds(500), 2000, false);
    ActorPoolConfig c;
    c.env = "curriculum";
    c.registry = &registry;
    c.actors = 6;
    c.envs_per_actor = 3;
    c.max_frames = max_frames;
    EpisodeStats stats;
    std::atomic<std::int64_t> frames{300};  // a resumed run's counter
    ActorPool pool(c, batcher, stats, frames);
    pool.start();
    // Nobody serves the batcher: every actor blocks in its first submit,
    // after beginning its envs' episodes.
    REQUIRE(test::wait_until([&] { return pool.settled() == c.actors; }));
    batcher.close();
    pool.join();
    std::lock_guard lock(mu);
    return heard;
  };
  const std::vector<double> followed = run(1200);
  REQUIRE(followed.size() == 18);
  for (const double h : followed) CHECK(h == Approx(0.25));
  const std::vector<double> unbounded = run(0);  // no budget: no progress to tell
  REQUIRE(unbounded.size() == 18);
  for (const double h : unbounded) CHECK(h == -1);
}
