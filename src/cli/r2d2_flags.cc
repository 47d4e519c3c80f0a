#include "seedrl/cli/r2d2_flags.h"

#include <cstdint>
#include <string>
#include <vector>

#include "seedrl/cli/config_file.h"
#include "seedrl/cli/validators.h"

namespace seedrl {

void add_r2d2_learner_flags(CLI::App& cmd, TrainConfig& c, const std::vector<std::string>& algos) {
  auto& r = c.r2d2;
  std::string listed;
  for (const std::string& a : algos) listed += (listed.empty() ? "" : " | ") + a;
  cmd.add_option("--algo", c.algo, "Learning algorithm: " + listed)->check(CLI::IsMember(algos));
  cmd.add_option("--burn-in", r.burn_in, "R2D2: steps replayed before each sequence's loss to warm the LSTM state")
      ->check(in_range(0, 100000));
  cmd.add_option("--sequence-overlap", r.sequence_overlap,
                 "R2D2: steps shared by consecutive sequences of an env (< --unroll-length)")
      ->check(in_range(0, 100000));
  cmd.add_option("--n-step", r.n_step, "R2D2 and SAC: n of the n-step targets (SAC default 1)")
      ->check(in_range(1, 1000));
  cmd.add_option("--target-update-period", r.target_update_period, "R2D2: learner steps between target-network copies")
      ->check(in_range(1, 1 << 30));
  cmd.add_option("--priority-eta", r.priority_eta, "R2D2: priority mix eta max|td| + (1 - eta) mean|td|")
      ->check(in_range(0.0, 1.0));
  cmd.add_option("--replay-capacity", r.replay_capacity, "R2D2: replay size in sequences; SAC: in transitions")
      ->check(in_range(std::int64_t{1}, std::int64_t{1} << 40));
  cmd.add_option("--priority-exponent", r.priority_exponent, "R2D2: alpha of the sampling priorities p^alpha")
      ->check(in_range(0.0, 10.0));
  cmd.add_option("--importance-exponent", r.importance_exponent, "R2D2: beta of the importance weights")
      ->check(in_range(0.0, 10.0));
  cmd.add_option("--replay-ratio", r.replay_ratio,
                 "R2D2: sequences sampled per sequence inserted; SAC: transitions sampled per transition inserted "
                 "(default --batch-size: one update per env step). Between --batch-size / --max-frames (one update "
                 "in the whole run) and 1000 x --batch-size (1000 updates per insert) (0: no limit)")
      ->check(non_negative());
  cmd.add_option("--min-replay", r.min_replay, "R2D2: sequences in replay before learning starts; SAC: transitions")
      ->check(in_range(std::int64_t{1}, std::int64_t{1} << 40));
  cmd.add_flag(
         "--checkpoint-replay,!--no-checkpoint-replay", c.checkpoint_replay,
         "R2D2 and SAC: save the replay (sequences and priorities) as replay.bin in --logdir with every checkpoint, "
         "and restore it on --resume instead of refilling --min-replay (default on; --no-checkpoint-replay for a "
         "replay too large to write)")
      ->default_str(c.checkpoint_replay ? "true" : "false");
}

void apply_r2d2_defaults(const CLI::App& cmd, TrainConfig& c) {
  if (c.algo != "r2d2") return;
  if (!flag_given(cmd, "--unroll-length")) c.unroll_length = R2D2SharedDefaults::unroll_length;
  if (!flag_given(cmd, "--learning-rate")) c.learner.optimizer.learning_rate = R2D2SharedDefaults::learning_rate;
  if (!flag_given(cmd, "--adam-eps")) c.learner.optimizer.adam_eps = R2D2SharedDefaults::adam_eps;
  if (!flag_given(cmd, "--discount")) c.learner.loss.discount = R2D2SharedDefaults::discount;
  if (!flag_given(cmd, "--batch-size")) c.learner.batch_size = R2D2SharedDefaults::batch_size;
}

}  // namespace seedrl
