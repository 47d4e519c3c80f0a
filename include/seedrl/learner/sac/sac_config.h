// Soft actor-critic settings (Haarnoja et al. 2018); plain data shared by the
// CLI, the run config, the SAC learner and its inference step. The replay's
// settings (capacity, replay ratio, min fill, n-step) are R2D2Config's, the
// same flags and the same replay (learner/r2d2/replay.h), uniform for SAC.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace seedrl {

struct SacConfig {
  double tau = 0.005;                    // Polyak rate of the target critics
  double initial_temperature = 1.0;      // alpha at the start
  double target_entropy = std::nan("");  // NaN: -(action dimensions), as in the paper
  bool learn_temperature = true;
  // Env steps at the start acting uniformly at random over the action box
  // (SAC's usual warm-up: the replay's first transitions cover the box).
  std::int64_t random_steps = 10000;
  // A CPU learner's threads for the twin critics: 2 runs each critic's work
  // beside the other's (learner/sac/sac_update.h); a GPU learner uses 1.
  int critic_threads = 2;

  double target_entropy_for(int action_dims) const {
    return std::isnan(target_entropy) ? -static_cast<double>(action_dims) : target_entropy;
  }
};

// Defaults SAC uses for flags it shares with the other algorithms, applied
// when the user did not give them (Haarnoja et al. 2018, table 1).
struct SacSharedDefaults {
  static constexpr double learning_rate = 3e-4;
  static constexpr double discount = 0.99;
  static constexpr int batch_size = 256;
  static constexpr int hidden = 256;  // two layers of this width
  static constexpr int n_step = 1;
  static constexpr std::int64_t replay_capacity = 1000000;
  static constexpr std::int64_t min_replay = 10000;
  // Samples per inserted transition: batch_size of them is one update per env step.
  static constexpr double updates_per_step = 1.0;
};

}  // namespace seedrl
