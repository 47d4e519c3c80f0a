// --target-return's moment: the first full window whose mean reaches the
// target, once; kept across a resume only for the same target.
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <thread>
#include <vector>

#include "seedrl/trainer/target_watch.h"

using seedrl::EpisodeStats;
using seedrl::TargetReached;
using seedrl::TargetWatch;

namespace {
EpisodeStats::Summary window(std::int64_t episodes, std::int64_t in_window, double mean) {
  EpisodeStats::Summary s;
  s.episodes = episodes;
  s.in_window = in_window;
  s.window = 100;
  s.return_mean = mean;
  return s;
}
}  // namespace

TEST_CASE("the target is reached by the first full window at or above it, once", "[trainer][target]") {
  TargetWatch watch(18.0, std::nullopt);
  REQUIRE(watch.active());
  CHECK_FALSE(watch.check(window(40, 40, 20.0), 1000, 1.0, 10));  // a partial window: a few lucky episodes
  CHECK_FALSE(watch.check(window(150, 100, 17.99), 2000, 2.0, 20));
  CHECK_FALSE(watch.reached());
  CHECK(watch.check(window(160, 100, 18.0), 3000, 3.5, 30));
  CHECK_FALSE(watch.check(window(170, 100, 19.0), 4000, 4.0, 40));  // later ones do not move the moment
  const auto hit = watch.reached();
  REQUIRE(hit);
  CHECK(hit->target == 18.0);
  CHECK(hit->mean_return == 18.0);
  CHECK(hit->frames == 3000);
  CHECK(hit->wall_seconds == 3.5);
  CHECK(hit->learner_steps == 30);
  CHECK(hit->episodes == 160);
  seedrl::Scalars out;
  watch.add_to(out);
  CHECK(out["target_return"] == 18.0);
  CHECK(out["target_frames"] == 3000);
  CHECK(out["target_wall_seconds"] == 3.5);
  CHECK(out["target_learner_steps"] == 30);
  CHECK(out["target_episodes"] == 160);
}

TEST_CASE("before the target the moment's keys are null, and without one there are none", "[trainer][target]") {
  TargetWatch watch(-200.0, std::nullopt);
  seedrl::Scalars out;
  watch.add_to(out);
  CHECK(out["target_return"] == -200.0);
  CHECK(std::isnan(out["target_frames"]));
  CHECK(std::isnan(out["target_wall_seconds"]));
  // Negative targets compare as returns do: -150 is above -200.
  CHECK(watch.check(window(100, 100, -150.0), 10, 1.0, 1));

  TargetWatch none(std::nullopt, std::nullopt);
  CHECK_FALSE(none.active());
  CHECK_FALSE(none.check(window(100, 100, 1e9), 10, 1.0, 1));
  seedrl::Scalars nothing;
  none.add_to(nothing);
  CHECK(nothing.empty());
}

TEST_CASE("a resumed run keeps its earlier moment for the same target only", "[trainer][target][resume]") {
  const TargetReached before{18.0, 18.4, 5000, 60.0, 50, 300};
  TargetWatch same(18.0, before);
  REQUIRE(same.reached());
  CHECK(same.reached()->frames == 5000);
  CHECK_FALSE(same.check(window(400, 100, 20.0), 9000, 90.0, 90));  // already reached: not again at the resume
  CHECK(same.reached()->frames == 5000);

  TargetWatch other(19.0, before);
  CHECK_FALSE(other.reached());
  CHECK(other.check(window(400, 100, 20.0), 9000, 90.0, 90));
  CHECK(other.reached()->frames == 9000);
}

TEST_CASE("many threads read the moment while one checks", "[trainer][target][concurrency]") {
  TargetWatch watch(1.0, std::nullopt);
  // Counted here and checked after the joins: Catch's assertions are not
  // safe to make from several threads at once.
  std::atomic<int> wrong{0}, seen{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 8; ++t)
    readers.emplace_back([&] {
      for (int i = 0; i < 20000; ++i)
        if (const auto r = watch.reached()) {
          ++seen;
          if (r->frames != 777) ++wrong;  // the first moment, never a torn or later one
          return;
        }
    });
  int firsts = 0;
  for (int i = 0; i < 1000; ++i) firsts += watch.check(window(100 + i, 100, 2.0), 777 + i, 1.0, 1);
  for (auto& r : readers) r.join();
  CHECK(wrong == 0);
  INFO(seen << " of 8 readers saw the moment");
  CHECK(firsts == 1);
  CHECK(watch.reached()->frames == 777);
}
