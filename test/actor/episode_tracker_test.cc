// The episode tracker against hand-computed episodes: what each slot's
// (reward, flags) stream adds to EpisodeStats, and which steps are frames.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "seedrl/actor/episode_tracker.h"

using namespace seedrl;

TEST_CASE("the episode tracker records each slot's episodes across resets", "[actor][episodes]") {
  EpisodeStats stats;
  EpisodeTracker t(stats, 2);
  CHECK(t.first_due(0));
  CHECK(t.first_due(1));
  // Slot 0: FIRST, 1, 2, 3 (terminated): return 6 over 3 steps.
  // Slot 1: FIRST, 0.5, 0.5 (truncated): return 1 over 2 steps.
  CHECK_FALSE(t.add(0, 7.f, kFirst));  // a reset: its reward is no part of the episode
  CHECK_FALSE(t.add(1, 0.f, kFirst));
  CHECK_FALSE(t.first_due(0));
  CHECK(t.add(0, 1.f, 0));
  CHECK(t.add(1, 0.5f, 0));
  CHECK(t.add(0, 2.f, 0));
  CHECK(t.episode_return(0) == 3.0);
  CHECK(t.episode_length(0) == 2);
  CHECK(t.add(1, 0.5f, kTruncated));
  CHECK(t.first_due(1));
  CHECK(stats.summary().episodes == 1);
  CHECK(stats.summary().return_mean == Approx(1.0));
  CHECK(stats.summary().length_mean == Approx(2.0));
  CHECK(t.add(0, 3.f, kTerminated));
  CHECK(t.first_due(0));
  CHECK(t.episode_return(0) == 0.0);
  CHECK(t.episode_length(0) == 0);
  auto s = stats.summary();
  CHECK(s.episodes == 2);
  CHECK(s.return_mean == Approx((6.0 + 1.0) / 2));
  CHECK(s.length_mean == Approx((3.0 + 2.0) / 2));

  // Slot 0's next episode starts from zero: FIRST, -1 (terminated).
  CHECK_FALSE(t.add(0, 0.f, kFirst));
  CHECK(t.add(0, -1.f, kTerminated));
  s = stats.summary();
  CHECK(s.episodes == 3);
  CHECK(s.return_mean == Approx((6.0 + 1.0 - 1.0) / 3));
  CHECK(s.length_mean == Approx((3.0 + 2.0 + 1.0) / 3));
}

TEST_CASE("the episode tracker counts frames of a whole step and drops an episode cut short by a reset",
          "[actor][episodes]") {
  EpisodeStats stats;
  EpisodeTracker t(stats, 3);
  std::vector<EnvStep> steps(3);
  for (auto& s : steps) s.flags = kFirst;
  CHECK(t.add(steps) == 0);  // resets are not frames
  steps[0] = {0, 0, 2.f};
  steps[1] = {1, kTerminated, 4.f};
  steps[2] = {2, kTruncated, 1.f};
  CHECK(t.add(steps) == 3);
  CHECK(stats.summary().episodes == 2);
  CHECK(stats.summary().return_mean == Approx(2.5));
  // Slot 0 restarts before its episode ended (a remote actor that
  // reconnected or reset): the 2 so far belong to no episode.
  steps[0] = {0, kFirst, 0.f};
  steps[1] = {1, kFirst, 0.f};
  steps[2] = {2, kFirst, 0.f};
  CHECK(t.add(steps) == 0);
  CHECK(t.episode_return(0) == 0.0);
  CHECK(t.add(0, 5.f, kTerminated));
  const auto s = stats.summary();
  CHECK(s.episodes == 3);
  CHECK(s.return_mean == Approx((4.0 + 1.0 + 5.0) / 3));
  CHECK(s.length_mean == Approx(1.0));
}

TEST_CASE("resetting the episode tracker forgets episodes under way", "[actor][episodes]") {
  EpisodeStats stats;
  EpisodeTracker t(stats, 1);
  t.add(0, 0.f, kFirst);
  t.add(0, 3.f, 0);
  t.reset(2);
  CHECK(t.size() == 2);
  CHECK(t.first_due(0));
  CHECK(t.episode_return(0) == 0.0);
  CHECK(t.episode_length(0) == 0);
  CHECK(stats.summary().episodes == 0);
}

TEST_CASE("the episode tracker counts a game across its lost lives, as one episode", "[actor][episodes]") {
  EpisodeStats stats;
  EpisodeTracker t(stats, 1);
  // Life 1: FIRST, 1, 2 (terminated, life lost); life 2: FIRST, 4 (life
  // lost); life 3: FIRST, 0, 8 (terminated: game over). One game: 15 in 5 steps.
  t.add(0, 0.f, kFirst);
  t.add(0, 1.f, 0);
  t.add(0, 2.f, kTerminated | kLifeLost);
  CHECK(t.first_due(0));  // the learner's episode ended: the env resets
  CHECK(stats.summary().episodes == 0);
  CHECK_FALSE(t.add(0, 0.f, kFirst));  // the reset continues the game
  CHECK(t.episode_return(0) == 3.0);
  t.add(0, 4.f, kTerminated | kLifeLost);
  t.add(0, 0.f, kFirst);
  t.add(0, 0.f, 0);
  CHECK(stats.summary().episodes == 0);
  t.add(0, 8.f, kTerminated);
  auto s = stats.summary();
  REQUIRE(s.episodes == 1);
  CHECK(s.return_mean == Approx(15.0));
  CHECK(s.length_mean == Approx(5.0));
  // The next game starts from zero.
  t.add(0, 0.f, kFirst);
  t.add(0, -1.f, kTerminated);
  s = stats.summary();
  CHECK(s.episodes == 2);
  CHECK(s.return_mean == Approx((15.0 - 1.0) / 2));
  // A truncation ends the game even with the life-lost bit.
  t.add(0, 0.f, kFirst);
  t.add(0, 2.f, kTerminated | kTruncated | kLifeLost);
  CHECK(stats.summary().episodes == 3);
  // reset() forgets a game under way between lives.
  t.add(0, 0.f, kFirst);
  t.add(0, 5.f, kTerminated | kLifeLost);
  t.reset(1);
  t.add(0, 0.f, kFirst);
  CHECK(t.episode_return(0) == 0.0);
}

TEST_CASE("episode stats count how the window's episodes ended, among those that said", "[actor][episodes]") {
  static constexpr const char* kSays[] = {"goal", "lost", "time up"};
  static constexpr const char* kOther[] = {"won"};
  EpisodeStats stats(4);
  CHECK(stats.outcome_names().empty());
  CHECK(stats.outcome_shares().empty());
  stats.name_outcomes(kSays);
  stats.name_outcomes(kOther);  // the first naming stands
  REQUIRE(stats.outcome_names() == std::vector<std::string>{"goal", "lost", "time up"});
  for (const double v : stats.outcome_shares()) CHECK(std::isnan(v));  // no episode yet

  EpisodeTracker t(stats, 1);
  t.add(0, 0.f, kFirst);
  t.add(0, 1.f, 0, 2);  // not a last step: its outcome is no episode's
  t.add(0, 1.f, kTerminated, 0);
  t.add(0, 0.f, kFirst);
  t.add(0, 0.f, kTruncated, 1);
  t.add(0, 0.f, kFirst);
  t.add(0, 0.f, kTerminated);  // said nothing
  std::vector<double> shares = stats.outcome_shares();
  REQUIRE(shares.size() == 3);
  CHECK(shares[0] == Approx(0.5));
  CHECK(shares[1] == Approx(0.5));
  CHECK(shares[2] == 0);

  // The window of 4 slides past the first goal: lost, nothing, goal, goal.
  for (int i = 0; i < 2; ++i) {
    t.add(0, 0.f, kFirst);
    t.add(0, 1.f, kTerminated, 0);
  }
  shares = stats.outcome_shares();
  CHECK(shares[0] == Approx(2.0 / 3));
  CHECK(shares[1] == Approx(1.0 / 3));
  CHECK(stats.summary().return_mean == Approx((0 + 0 + 1 + 1) / 4.0));

  // A resume restores returns, not outcomes: they count for none.
  stats.set_base(9, {1, 1, 1}, {5, 5, 5});
  for (const double v : stats.outcome_shares()) CHECK(std::isnan(v));
  stats.record(0, 5, 1);
  shares = stats.outcome_shares();
  CHECK(shares[1] == 1);
  CHECK(shares[0] == 0);
}
