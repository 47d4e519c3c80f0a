// The one env-stepping routine of local and remote actors: seeds, resets
// after an episode ends, the ignored action of a final observation, clipping,
// and what it reports to the episode tracker.
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../env/judged_env.h"
#include "seedrl/actor/env_stepper.h"
#include "seedrl/env/episode_outcome.h"
#include "seedrl/util/rng.h"

using namespace seedrl;

namespace {
// A cartpole policy of the observation alone, as good as a random one: a bit
// of the cart velocity's float. Its episodes last about as long as the time
// limit of 25, so some terminate and some are truncated.
float policy(const float* obs) {
  std::uint32_t bits;
  std::memcpy(&bits, &obs[1], sizeof(bits));
  return static_cast<float>((bits >> 7) & 1u);
}
}  // namespace

TEST_CASE("the env stepper tells the tracker how each episode ended", "[actor][envstep]") {
  EpisodeStats stats;
  EpisodeTracker tracker(stats);
  std::vector<EnvPtr> envs;
  envs.push_back(std::make_unique<test::JudgedEnv>(std::vector<int>{2, 5, 3}, 4));
  envs.push_back(std::make_unique<test::JudgedEnv>(std::vector<int>{6}, 4));
  EnvStepper stepper(std::move(envs), &tracker);
  REQUIRE(stats.outcome_names() == std::vector<std::string>{"short", "long"});
  float obs[2], rewards[2], actions[2] = {0, 0};
  std::uint8_t flags[2];
  for (int k = 0; k < 2; ++k) stepper.bind(k, EnvPort{&obs[k], &rewards[k], &flags[k], &actions[k]});
  stepper.begin(1, 0);
  // 27 rounds (a reset takes a round of its own): env 0 ends episodes of
  // 2, 5, 3, 2, 5, 3 steps at rounds 2, 8, 12, 15, 21, 25; env 1 episodes of
  // 6 at rounds 6, 13, 20, 27.
  for (int round = 0; round < 27; ++round) stepper.step();
  REQUIRE(stats.summary().episodes == 10);
  const std::vector<double> shares = stats.outcome_shares();
  CHECK(shares[0] == Approx(4.0 / 10));  // the 2s and 3s
  CHECK(shares[1] == Approx(6.0 / 10));  // the 5s and 6s

  // Envs that say nothing leave the names empty.
  EpisodeStats quiet;
  EpisodeTracker quiet_tracker(quiet);
  EnvStepper plain(make_envs("cartpole", {}, 1), &quiet_tracker);
  CHECK(quiet.outcome_names().empty());
}

TEST_CASE("the env stepper steps like hand-driven envs and tells the tracker every episode", "[actor][envstep]") {
  EnvOptions options;
  options.time_limit = 25;
  const int K = 2;
  EpisodeStats stats;
  EpisodeTracker tracker(stats);
  EnvStepper stepper(make_envs("cartpole", options, K), &tracker);
  REQUIRE(tracker.size() == K);
  auto reference = make_envs("cartpole", options, K);
  float obs[K][4], ref_obs[K][4], rewards[K], actions[K];
  std::uint8_t flags[K];
  for (int k = 0; k < K; ++k) stepper.bind(k, EnvPort{obs[k], &rewards[k], &flags[k], &actions[k]});
  stepper.begin(11, 5);
  std::uint8_t ref_flags[K];
  for (int k = 0; k < K; ++k) {
    reference[k]->reset(derive_seed(11, 5 + k), ref_obs[k]);
    ref_flags[k] = kFirst;
    CHECK(flags[k] == kFirst);
    CHECK(rewards[k] == 0.f);
    CHECK(std::memcmp(obs[k], ref_obs[k], sizeof(obs[k])) == 0);
  }
  // By hand: every episode's return and length, and how it ended.
  double ref_returns[K] = {0, 0}, return_sum = 0, length_sum = 0;
  int ref_lengths[K] = {0, 0};
  int episodes = 0, terminated = 0, truncated = 0;
  for (int round = 0; round < 300; ++round) {
    std::int64_t ref_stepped = 0;
    for (int k = 0; k < K; ++k) {
      // The action for a final observation is ignored; an invalid one shows it.
      actions[k] = is_last(flags[k]) ? 99.f : policy(obs[k]);
      if (is_last(ref_flags[k])) {
        reference[k]->reset(std::nullopt, ref_obs[k]);
        ref_flags[k] = kFirst;
        continue;
      }
      const StepResult r = reference[k]->step(Action{static_cast<std::int32_t>(actions[k]), &actions[k]}, ref_obs[k]);
      ref_flags[k] = static_cast<std::uint8_t>((r.terminated ? kTerminated : 0) | (r.truncated ? kTruncated : 0));
      ref_returns[k] += r.reward;
      ++ref_lengths[k];
      ++ref_stepped;
      if (is_last(ref_flags[k])) {
        ++episodes;
        return_sum += ref_returns[k];
        length_sum += ref_lengths[k];
        ref_returns[k] = 0;
        ref_lengths[k] = 0;
        terminated += r.terminated;
        truncated += r.truncated;
      }
    }
    REQUIRE(stepper.step() == ref_stepped);
    for (int k = 0; k < K; ++k) {
      CHECK(flags[k] == ref_flags[k]);
      CHECK(std::memcmp(obs[k], ref_obs[k], sizeof(obs[k])) == 0);
    }
  }
  CHECK(terminated > 0);
  CHECK(truncated > 0);
  REQUIRE(episodes <= 100);  // all of them in the stats' window
  const auto s = stats.summary();
  CHECK(s.episodes == episodes);
  CHECK(s.return_mean == Approx(return_sum / episodes));
  CHECK(s.length_mean == Approx(length_sum / episodes));
}

TEST_CASE("the env stepper hands its env the action clipped to the box and leaves the sample as it was",
          "[actor][envstep]") {
  // MountainCarContinuous costs 0.1 a^2 per step: an unclipped 5 would cost 2.5.
  EnvStepper stepper(make_envs("mountaincar-continuous", {}, 1));
  float obs[2], reward = 1.f, action = 5.f;
  std::uint8_t flags = 0;
  stepper.bind(0, EnvPort{obs, &reward, &flags, &action});
  stepper.begin(3, 0);
  REQUIRE(stepper.step() == 1);
  CHECK(reward == Approx(-0.1f));
  CHECK(flags == 0);
  CHECK(action == 5.f);
}

TEST_CASE("the env stepper without a seed continues each env's random stream", "[actor][envstep]") {
  EnvStepper a(make_envs("cartpole", {}, 1)), b(make_envs("cartpole", {}, 1));
  float oa[4], ob[4], r = 0, act = 0;
  std::uint8_t fa = 0, fb = 0;
  a.bind(0, EnvPort{oa, &r, &fa, &act});
  b.bind(0, EnvPort{ob, &r, &fb, &act});
  a.begin(7, 2);
  b.begin(7, 2);
  CHECK(std::memcmp(oa, ob, sizeof(oa)) == 0);
  a.begin(std::nullopt, 0);  // a second episode: a new start state from the same stream
  CHECK(std::memcmp(oa, ob, sizeof(oa)) != 0);
  b.begin(std::nullopt, 0);
  CHECK(std::memcmp(oa, ob, sizeof(oa)) == 0);
}
