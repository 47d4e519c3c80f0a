#include "seedrl/trainer/sac_setup.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "seedrl/trainer/placement.h"
#include "seedrl/trainer/r2d2_setup.h"

namespace seedrl {

void validate_sac_config(const TrainConfig& c) {
  const SacConfig& s = c.sac;
  if (!(s.tau > 0 && s.tau <= 1)) throw std::invalid_argument("--tau: must be in (0, 1]");
  if (!(s.initial_temperature > 0) || !std::isfinite(s.initial_temperature))
    throw std::invalid_argument("--init-temperature: must be a positive number");
  if (std::isinf(s.target_entropy)) throw std::invalid_argument("--target-entropy: must be finite");
  if (s.random_steps < 0) throw std::invalid_argument("--random-steps: must not be negative");
  validate_replay_flags(c, "sac");
  if (c.model.lstm) throw std::invalid_argument("--lstm: not with --algo sac (its networks are feed-forward)");
  if (c.model.separate_value_net)
    throw std::invalid_argument("--separate-value-net: V-trace only (SAC's critics are networks of their own)");
  if (c.learner.optimizer.name != "adam") throw std::invalid_argument("--optimizer: SAC uses adam");
  if (c.learner.epochs != 1) throw std::invalid_argument("--epochs: V-trace only (SAC's pace is --replay-ratio)");
  const Placement placement = resolve_placement(c);
  if (placement.learner.size() != 1)
    throw std::invalid_argument("--learner-devices: SAC learns on one device (" +
                                std::to_string(placement.learner.size()) + " given)");
}

UnrollLayout sac_sequence_layout(const TrainConfig& config, const EnvSpec& spec) {
  if (spec.action.is_discrete())
    throw std::invalid_argument("--algo sac: " + spec.name + " has discrete actions (" + spec.action.to_string() +
                                "); SAC needs a continuous action box (use --algo vtrace or r2d2)");
  UnrollLayout layout;
  layout.observation = spec.observation;
  layout.action_width = spec.action.dim;
  layout.policy_size = 1;
  layout.core_size = 0;
  layout.length = config.r2d2.n_step + 1;
  layout.overlap = config.r2d2.n_step;
  return layout;
}

r2d2::ReplayConfig sac_replay_config(const TrainConfig& config) {
  const R2D2Config& rc = config.r2d2;
  r2d2::ReplayConfig replay;
  replay.capacity = rc.replay_capacity;
  replay.priority_exponent = 0;    // uniform
  replay.importance_exponent = 0;  // unit weights
  replay.replay_ratio = rc.replay_ratio;
  replay.min_fill = std::max<std::int64_t>(rc.min_replay, config.learner.batch_size);
  replay.tolerance = 2 * config.learner.batch_size;
  replay.seed = config.seed;
  return replay;
}

}  // namespace seedrl
