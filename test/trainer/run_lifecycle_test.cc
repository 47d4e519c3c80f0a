// The pieces of a run's lifecycle that every algorithm shares, without a run:
// the resume of a finished run and the monitor's scalars when no episode has
// ended yet (the ordered stop on any exception: pipeline_test.cc).
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "../cli/run_binary.h"
#include "seedrl/actor/episode_stats.h"
#include "seedrl/trainer/run_ending.h"
#include "seedrl/trainer/run_monitor.h"

using namespace seedrl;
using namespace seedrl::test;

TEST_CASE("a resumed run whose checkpoint holds --max-frames is finished", "[trainer][lifecycle][resume]") {
  CHECK(finished_before(1000, 1000));
  CHECK(finished_before(1024, 1000));  // envs step past the limit
  CHECK_FALSE(finished_before(999, 1000));
  CHECK_FALSE(finished_before(0, 1000));
}

TEST_CASE("before an episode ends, a resumed run reports no mean return rather than 0",
          "[trainer][lifecycle][resume]") {
  const std::string dir = temp_dir("monitor_no_episode");
  EpisodeStats episodes;
  episodes.set_base(7);  // the run's episodes before the resume; their returns are not in the window
  std::atomic<std::int64_t> frames{5000}, steps{40};
  std::atomic<bool> checkpoint_due{false};
  RunMonitor monitor({dir, 10000, 5, 0}, frames, steps, episodes, nullptr);
  monitor.watch([] { return true; }, checkpoint_due);
  const Scalars s = monitor.finish();
  CHECK(std::isnan(s.at("episode_return_mean")));
  CHECK(std::isnan(s.at("episode_length_mean")));
  CHECK(s.at("episodes") == 7);
  const auto summary = nlohmann::json::parse(read_file(dir + "/summary.json"));
  CHECK(summary["episode_return_mean"].is_null());
  CHECK(summary["frames"] == 5000);
  CHECK_THAT(describe_run(s), Catch::Contains("mean return (last 100) - (no episode ended)"));

  episodes.record(21, 21);
  RunMonitor next({dir, 10000, 5, 0}, frames, steps, episodes, nullptr);
  // The monitor counts from its start: an episode that ended before is not this process's.
  next.watch([] { return true; }, checkpoint_due);
  CHECK(std::isnan(next.finish().at("episode_return_mean")));
}

TEST_CASE("how the window's episodes ended goes into the metrics as ended_<outcome> shares", "[trainer][lifecycle]") {
  const std::string dir = temp_dir("monitor_outcomes");
  EpisodeStats episodes;
  static constexpr const char* kSays[] = {"goal", "lost to the keeper", "time up"};
  episodes.name_outcomes(kSays);
  std::atomic<std::int64_t> frames{0}, steps{0};
  std::atomic<bool> checkpoint_due{false};
  RunMonitor monitor({dir, 100, 5, 0}, frames, steps, episodes, nullptr);
  // 3 goals, 1 lost to the keeper, none out of time, and one that said nothing.
  for (const int o : {0, 1, 0, -1, 0}) episodes.record(1, 10, o);
  frames = 100;
  monitor.watch([] { return false; }, checkpoint_due);
  const Scalars s = monitor.finish();
  CHECK(s.at("ended_goal") == Approx(0.75));
  CHECK(s.at("ended_lost_to_the_keeper") == Approx(0.25));
  CHECK(s.at("ended_time_up") == 0);
  const std::string csv = read_file(dir + "/metrics.csv");
  CHECK_THAT(csv.substr(0, csv.find('\n')), Catch::Contains("ended_goal") &&
                                                Catch::Contains("ended_lost_to_the_keeper") &&
                                                Catch::Contains("ended_time_up"));
  CHECK(nlohmann::json::parse(read_file(dir + "/summary.json")).at("ended_goal") == Approx(0.75));

  // An env that does not say: no such columns.
  const std::string plain_dir = temp_dir("monitor_no_outcomes");
  EpisodeStats plain;
  RunMonitor quiet({plain_dir, 100, 5, 0}, frames, steps, plain, nullptr);
  plain.record(1, 10);
  quiet.watch([] { return false; }, checkpoint_due);
  for (const auto& [key, v] : quiet.finish()) CHECK(key.rfind("ended_", 0) != 0);
}

TEST_CASE("an episode that ends during the run gives the mean return", "[trainer][lifecycle]") {
  const std::string dir = temp_dir("monitor_episode");
  EpisodeStats episodes;
  std::atomic<std::int64_t> frames{0}, steps{0};
  std::atomic<bool> checkpoint_due{false};
  RunMonitor monitor({dir, 100, 5, 0}, frames, steps, episodes, nullptr);
  episodes.record(12, 12);
  frames = 100;
  monitor.watch([] { return false; }, checkpoint_due);  // returns at max_frames
  const Scalars s = monitor.finish();
  CHECK(s.at("episode_return_mean") == 12);
  CHECK(s.at("completed") == 1);
  // summary.json says it as a boolean.
  CHECK(nlohmann::json::parse(read_file(dir + "/summary.json")).at("completed") == true);
  CHECK_THAT(describe_run(s), Catch::Contains("mean return (last 100) 12.00"));
}
