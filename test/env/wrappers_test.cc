#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "judged_env.h"
#include "seedrl/env/episode_outcome.h"
#include "seedrl/env/play.h"
#include "seedrl/env/registry.h"
#include "seedrl/env/wrappers/action_repeat.h"
#include "seedrl/env/wrappers/frame_stack.h"
#include "seedrl/env/wrappers/time_limit.h"

using namespace seedrl;

namespace {
// Observation [2,1,2] uint8: every element holds the step count (+channel);
// reward = step count; terminates after `end` steps.
class Counter final : public Env {
 public:
  explicit Counter(int end) : end_(end) {
    spec_.name = "counter";
    spec_.observation = ArraySpec{{2, 1, 2}, DType::kUInt8};
    spec_.action = ActionSpec::discrete(2);
    spec_.observation_names = {"even", "odd"};  // channel 0 holds 10 t, channel 1 10 t + 1
  }
  const EnvSpec& spec() const override { return spec_; }
  void reset(std::optional<std::uint64_t>, void* obs) override {
    t_ = 0;
    write(obs);
  }
  StepResult step(const Action&, void* obs) override {
    ++t_;
    write(obs);
    return StepResult{static_cast<float>(t_), t_ >= end_, false};
  }

 private:
  void write(void* obs) const {
    auto* o = static_cast<std::uint8_t*>(obs);
    for (int p = 0; p < 2; ++p) {
      o[p * 2] = static_cast<std::uint8_t>(10 * t_);
      o[p * 2 + 1] = static_cast<std::uint8_t>(10 * t_ + 1);
    }
  }
  EnvSpec spec_;
  int end_, t_ = 0;
};

}  // namespace

TEST_CASE("action repeat sums rewards and stops at the episode end", "[env][wrappers]") {
  ActionRepeat env(std::make_unique<Counter>(7), 3);
  std::uint8_t obs[4];
  env.reset(1, obs);
  StepResult r = env.step(Action{}, obs);
  CHECK(r.reward == 1 + 2 + 3);
  CHECK(obs[0] == 30);
  r = env.step(Action{}, obs);
  CHECK(r.reward == 4 + 5 + 6);
  r = env.step(Action{}, obs);  // step 7 terminates: no 8th or 9th
  CHECK(r.reward == 7);
  CHECK(r.terminated);
}

TEST_CASE("frame stack interleaves the last k frames on the last axis", "[env][wrappers]") {
  FrameStack env(std::make_unique<Counter>(100), 3);
  CHECK(env.spec().observation.shape == std::vector<std::int64_t>{2, 1, 6});
  std::uint8_t obs[12];
  env.reset(1, obs);
  // At reset every slot holds frame 0.
  for (int p = 0; p < 2; ++p)
    for (int j = 0; j < 3; ++j) {
      CHECK(obs[p * 6 + j * 2] == 0);
      CHECK(obs[p * 6 + j * 2 + 1] == 1);
    }
  env.step(Action{}, obs);
  env.step(Action{}, obs);
  env.step(Action{}, obs);  // frames 1, 2, 3 with 3 newest (last)
  for (int p = 0; p < 2; ++p)
    for (int j = 0; j < 3; ++j) {
      CHECK(obs[p * 6 + j * 2] == 10 * (j + 1));
      CHECK(obs[p * 6 + j * 2 + 1] == 10 * (j + 1) + 1);
    }
  // The names follow the same layout: entry j * 2 + c is channel c of the
  // frame k - 1 - j steps old.
  CHECK(env.spec().observation_names ==
        std::vector<std::string>{"even(t-2)", "odd(t-2)", "even(t-1)", "odd(t-1)", "even(t)", "odd(t)"});
}

TEST_CASE("frame stack of one-byte pixels (Atari's grayscale) interleaves the same way", "[env][wrappers]") {
  // Observation [3,2,1] uint8: pixel p holds 10 * step + p.
  class Gray final : public Env {
   public:
    Gray() { spec_ = EnvSpec{"gray", ArraySpec{{3, 2, 1}, DType::kUInt8}, ActionSpec::discrete(2), 0}; }
    const EnvSpec& spec() const override { return spec_; }
    void reset(std::optional<std::uint64_t>, void* obs) override { write(obs, t_ = 0); }
    StepResult step(const Action&, void* obs) override {
      write(obs, ++t_);
      return {};
    }

   private:
    static void write(void* obs, int t) {
      for (int p = 0; p < 6; ++p) static_cast<std::uint8_t*>(obs)[p] = static_cast<std::uint8_t>(10 * t + p);
    }
    EnvSpec spec_;
    int t_ = 0;
  };
  FrameStack env(std::make_unique<Gray>(), 4);
  CHECK(env.spec().observation.shape == std::vector<std::int64_t>{3, 2, 4});
  std::uint8_t obs[24];
  env.reset(1, obs);
  for (int p = 0; p < 6; ++p)
    for (int j = 0; j < 4; ++j) CHECK(obs[p * 4 + j] == p);
  for (int t = 0; t < 5; ++t) env.step(Action{}, obs);  // frames 2..5, 5 newest (last)
  for (int p = 0; p < 6; ++p)
    for (int j = 0; j < 4; ++j) CHECK(obs[p * 4 + j] == 10 * (j + 2) + p);
}

TEST_CASE("an outer time limit truncates earlier and composes through the registry", "[env][wrappers]") {
  EnvOptions o;
  o.time_limit = 50;
  o.frame_stack = 4;
  o.action_repeat = 2;
  auto env = EnvRegistry::builtin().make("cartpole", o);
  CHECK(env->spec().max_episode_steps == 50);
  CHECK(env->spec().observation.shape == std::vector<std::int64_t>{16});
  std::vector<float> obs(16);
  env->reset(3, obs.data());
  int steps = 0;
  StepResult r;
  do {
    const float theta = obs[14], omega = obs[15];  // newest frame is last
    r = env->step(Action{theta + 0.5f * omega > 0 ? 1 : 0, nullptr}, obs.data());
    ++steps;
  } while (!r.terminated && !r.truncated);
  CHECK(steps == 50);
  CHECK(r.truncated);
  CHECK(r.reward == 2.0f);  // two repeated cartpole steps
}

TEST_CASE("episode outcomes come through the wrappers and play_episodes counts them", "[env][wrappers]") {
  // Episodes of 3, 9, 12 and 9 steps, the 12 cut to 10 by the time limit
  // (the inner env has not ended it: it says nothing for that one).
  auto judged = std::make_unique<test::JudgedEnv>(std::vector<int>{3, 9, 12, 9}, 5);
  EnvPtr env = std::make_unique<FrameStack>(
      std::make_unique<TimeLimit>(std::make_unique<ActionRepeat>(std::move(judged), 1), 10), 2);
  std::vector<std::uint8_t> obs(env->spec().observation.bytes());
  env->reset(1, obs.data());
  CHECK(episode_outcome(*env) == nullptr);  // under way
  const PlayPolicy idle = [](const void*, bool, float, float* a) { a[0] = 0; };
  const PlayStats s = play_episodes(*env, idle, 8, 1);
  REQUIRE(s.outcomes.size() == 2);
  CHECK(s.outcomes[0] == std::pair<std::string, int>("long", 4));  // most frequent first
  CHECK(s.outcomes[1] == std::pair<std::string, int>("short", 2));
  CHECK(s.length_mean == Approx((3 + 9 + 10 + 9) * 2 / 8.0));

  // The phrases and the outcome's index among them, through the wrappers.
  EnvPtr again = std::make_unique<TimeLimit>(std::make_unique<test::JudgedEnv>(std::vector<int>{9, 3}, 5), 10);
  const std::span<const char* const> says = episode_outcomes(*again);
  REQUIRE(says.size() == 2);
  CHECK(std::string(says[0]) == "short");
  CHECK(std::string(says[1]) == "long");
  std::vector<std::uint8_t> one(again->spec().observation.bytes());
  for (const int expect : {1, 0}) {
    again->reset(1, one.data());
    CHECK(episode_outcome_index(*again) == -1);  // under way
    while (!again->step(Action{}, one.data()).terminated) {
    }
    CHECK(episode_outcome_index(*again) == expect);
  }

  // An env that does not say: nothing counted.
  Counter plain(4);
  CHECK(play_episodes(plain, idle, 3, 1).outcomes.empty());
  CHECK(episode_outcomes(plain).empty());
  CHECK(episode_outcome_index(plain) == -1);
}
