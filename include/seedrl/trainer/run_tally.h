// The run's frame and episode counters in a run of several learner
// processes (learner/data_parallel_options.h, RunTally): what this process
// counted since the last exchange, and the others' share added in, so that
// every process's progress line, --max-frames and checkpoint count the whole run.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

#include "seedrl/actor/episode_stats.h"
#include "seedrl/learner/data_parallel_options.h"

namespace seedrl {

class PipelineTally final : public RunTally {
 public:
  PipelineTally(std::atomic<std::int64_t>& frames, EpisodeStats& episodes) : frames_(frames), episodes_(episodes) {
    rebase();
  }
  // After a resume set the counters: every process starts from the checkpoint's.
  void rebase() {
    frames_seen_ = frames_.load();
    episodes_seen_ = episodes_.summary().episodes;
  }

  std::array<std::int64_t, 2> take_local() override {
    const std::int64_t f = frames_.load(), e = episodes_.summary().episodes;
    const std::array<std::int64_t, 2> mine{f - frames_seen_, e - episodes_seen_};
    frames_seen_ = f;
    episodes_seen_ = e;
    return mine;
  }

  void add_others(std::array<std::int64_t, 2> others) override {
    // Counted as seen: the next take_local() must not hand them back as ours.
    frames_.fetch_add(others[0]);
    frames_seen_ += others[0];
    episodes_.add_elsewhere(others[1]);
    episodes_seen_ += others[1];
  }

 private:
  std::atomic<std::int64_t>& frames_;
  EpisodeStats& episodes_;
  std::int64_t frames_seen_ = 0, episodes_seen_ = 0;
};

}  // namespace seedrl
