// Episodes slot by slot, read off the (reward, flags) stream an actor hands
// to inference: a FIRST step begins an episode, every other step adds its
// reward and one to the length, and a terminated or truncated step ends it,
// recording its return and length into the run's EpisodeStats. A terminal
// that only lost a life (kLifeLost) ends the learner's episode, not the
// game: the FIRST step after it continues the count, so returns are game
// scores as Atari papers report them. Used by the
// local actor threads and by the learner's session of each remote actor, so
// both count episodes and frames the same way. Sized once; add() allocates
// nothing. Not thread-safe: one per actor thread or connection.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "seedrl/actor/episode_stats.h"
#include "seedrl/env/env_step.h"

namespace seedrl {

class EpisodeTracker {
 public:
  explicit EpisodeTracker(EpisodeStats& stats, std::size_t slots = 0) : stats_(stats) { reset(slots); }

  // `slots` slots, each expecting a FIRST step, with no episode under way.
  void reset(std::size_t slots);
  std::size_t size() const { return returns_.size(); }

  // Whether slot k's next step must carry the FIRST flag: its first step, or
  // the one after an episode ended.
  bool first_due(std::size_t k) const { return first_due_[k] != 0; }

  // Slot k's step. A FIRST step is a reset, not an env step: it starts a new
  // episode (dropping any unfinished one) and its reward is not counted.
  // Returns whether it was an env step (a frame).
  // `outcome`: how a last step's episode ended (EpisodeStats::record).
  bool add(std::size_t k, float reward, std::uint8_t flags, int outcome = -1) {
    first_due_[k] = is_last(flags);
    if (flags & kFirst) {
      if (!game_goes_on_[k]) {
        returns_[k] = 0;
        lengths_[k] = 0;
      }
      game_goes_on_[k] = 0;
      return false;
    }
    returns_[k] += reward;
    ++lengths_[k];
    if (is_last(flags)) {
      if ((flags & kLifeLost) && !(flags & kTruncated))
        game_goes_on_[k] = 1;
      else
        finish(k, outcome);
    }
    return true;
  }
  // Steps of slots 0..steps.size()-1; returns how many were env steps.
  std::int64_t add(std::span<const EnvStep> steps);

  // Names the outcome indices add() is given (EpisodeStats::name_outcomes).
  void name_outcomes(std::span<const char* const> names) { stats_.name_outcomes(names); }

  // The episode under way in slot k.
  double episode_return(std::size_t k) const { return returns_[k]; }
  std::int64_t episode_length(std::size_t k) const { return lengths_[k]; }

 private:
  void finish(std::size_t k, int outcome);  // records slot k's episode and clears it

  EpisodeStats& stats_;
  std::vector<double> returns_;
  std::vector<std::int64_t> lengths_;
  std::vector<std::uint8_t> first_due_;
  std::vector<std::uint8_t> game_goes_on_;  // the last step lost a life: the next FIRST continues the game
};

}  // namespace seedrl
