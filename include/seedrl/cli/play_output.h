// What `play` and `eval` share: their --record flags, and how they print
// episode statistics, one format for both:
//   cartpole | 10 episodes | return 500.000 ± 0.000 (std) | mean length 500.00
// or with --json one object: {"env":..., "episodes":..., "episode_return_mean":...,
// "episode_return_std":..., "episode_length_mean":...}.
#pragma once

#include <string>

#include "seedrl/env/play.h"

namespace CLI {
class App;
}

namespace seedrl {

void print_play_stats(const PlayStats& stats, bool json);

// --record FILE (an animated GIF of the episodes) and --record-max-frames.
void add_record_flags(CLI::App& cmd, std::string& file, long& max_frames);

}  // namespace seedrl
