// How `play` and `eval` print episode statistics, one format for both:
//   cartpole | 10 episodes | return 500.000 ± 0.000 (std) | mean length 500.00
// or with --json one object: {"env":..., "episodes":..., "episode_return_mean":...,
// "episode_return_std":..., "episode_length_mean":...}.
#pragma once

#include "seedrl/env/play.h"

namespace seedrl {

void print_play_stats(const PlayStats& stats, bool json);

}  // namespace seedrl
