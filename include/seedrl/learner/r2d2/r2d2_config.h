// R2D2 settings (Kapturowski et al., ICLR 2019); plain data shared by the CLI,
// the run config and the R2D2 learner, replay and inference.
#pragma once

#include <cstdint>

namespace seedrl {

struct R2D2Config {
  // Sequences: each stored sequence holds burn_in + unroll_length + 1 entries
  // (the last one only bootstraps); a slot starts a new sequence every
  // unroll_length - sequence_overlap steps.
  int burn_in = 40;
  int sequence_overlap = 40;
  // Targets.
  int n_step = 5;
  int target_update_period = 2500;  // learner steps between target-network copies
  double priority_eta = 0.9;        // p = eta max|delta| + (1 - eta) mean|delta|
  // Replay.
  std::int64_t replay_capacity = 20000;  // sequences
  double priority_exponent = 0.9;        // alpha: P(i) ~ p_i^alpha
  double importance_exponent = 0.6;      // beta: w_i ~ (N P(i))^-beta, normalised by the batch max
  double replay_ratio = 1.0;             // sequences sampled by the learner per sequence inserted
  std::int64_t min_replay = 1000;        // sequences in replay before learning starts
  // Exploration (Ape-X): actor i of N acts eps-greedily with eps^(1 + alpha i / (N - 1)).
  double epsilon = 0.4;
  double epsilon_alpha = 7.0;
  int eval_envs = 0;  // extra environments acting with eval_epsilon, reported apart
  double eval_epsilon = 0.001;
};

// Defaults R2D2 uses for flags it shares with V-trace, applied when the user
// did not give them.
struct R2D2SharedDefaults {
  static constexpr int unroll_length = 80;
  static constexpr double learning_rate = 1e-4;
  // R2D2's 1e-3 over its 80 steps: R2D2 sums the loss over a sequence's
  // steps, seedrl averages it, so its gradients are 80x smaller and an eps of
  // 1e-3 would swamp them.
  static constexpr double adam_eps = 1e-3 / 80;
  static constexpr double discount = 0.997;
  static constexpr int batch_size = 64;
};

}  // namespace seedrl
