// One remote connection's episodes, env by env: whether an env's next step
// must begin an episode (carry the FIRST flag), and the return and length of
// the episode under way, recorded into the run's EpisodeStats when it ends.
// Sized once at the handshake; the step loop allocates nothing. Not
// thread-safe (the connection's strand).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "seedrl/actor/episode_stats.h"
#include "seedrl/inference/env_step.h"

namespace seedrl::net {

class EpisodeAccounting {
 public:
  // `envs` envs, each expecting a FIRST step.
  void reset(std::size_t envs);
  // Whether env k's next step must carry the FIRST flag: its first step, or
  // the one after an episode end.
  bool first_due(std::size_t k) const { return expect_first_[k] != 0; }
  // Env k sent a step with `flags` (checked).
  void saw(std::size_t k, std::uint8_t flags) { expect_first_[k] = is_last(flags); }
  // Adds a checked STEP's rewards and records the episodes it ends. Returns
  // how many env steps it holds (a FIRST step is a reset, not a step).
  std::int64_t add(std::span<const EnvStep> steps, EpisodeStats& episodes);

 private:
  std::vector<double> returns_;
  std::vector<std::int64_t> lengths_;
  std::vector<std::uint8_t> expect_first_;
};

}  // namespace seedrl::net
