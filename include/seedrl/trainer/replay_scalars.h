// A replay's part of a metrics line, R2D2's and SAC's alike: its size and
// bytes, what was inserted and sampled in all, and the insert and sample
// rates since the previous line. Called from the metrics thread only.
#pragma once

#include <algorithm>
#include <cstdint>

#include "seedrl/io/metrics_writer.h"
#include "seedrl/learner/r2d2/replay.h"
#include "seedrl/util/clock.h"

namespace seedrl {

class ReplayScalars {
 public:
  explicit ReplayScalars(const r2d2::Replay& replay)
      : replay_(replay), inserted_(replay.inserted()), sampled_(replay.sampled()) {}

  void add(Scalars& out) {
    const double dt = std::max(1e-9, seconds_since(last_));
    const std::uint64_t ins = replay_.inserted(), smp = replay_.sampled();
    out.insert({{"replay_size", static_cast<double>(replay_.size())},
                {"replay_bytes", static_cast<double>(replay_.byte_size())},
                {"replay_inserted", static_cast<double>(ins)},
                {"replay_sampled", static_cast<double>(smp)},
                {"replay_insert_rate", static_cast<double>(ins - inserted_) / dt},
                {"replay_sample_rate", static_cast<double>(smp - sampled_) / dt}});
    last_ = SteadyClock::now();
    inserted_ = ins;
    sampled_ = smp;
  }

 private:
  const r2d2::Replay& replay_;
  SteadyClock::time_point last_ = SteadyClock::now();
  std::uint64_t inserted_, sampled_;
};

}  // namespace seedrl
