#include "seedrl/trainer/r2d2_setup.h"

#include <stdexcept>
#include <string>

namespace seedrl {

void validate_r2d2_config(const TrainConfig& c) {
  const auto& r = c.r2d2;
  if (r.sequence_overlap >= c.unroll_length)
    throw std::invalid_argument("--sequence-overlap: " + std::to_string(r.sequence_overlap) +
                                " must be below --unroll-length " + std::to_string(c.unroll_length));
  if (c.unroll_length < 2) throw std::invalid_argument("--unroll-length: R2D2 needs at least 2");
  validate_replay_flags(c, "r2d2");
}

void validate_replay_flags(const TrainConfig& c, const std::string& algo) {
  const auto& r = c.r2d2;
  if (r.min_replay > r.replay_capacity)
    throw std::invalid_argument("--min-replay: " + std::to_string(r.min_replay) + " exceeds --replay-capacity " +
                                std::to_string(r.replay_capacity));
  if (c.learner.batch_size > r.replay_capacity)
    throw std::invalid_argument("--batch-size: larger than --replay-capacity");
  if (c.model.normalize_obs) throw std::invalid_argument("--normalize-obs: V-trace only (not --algo " + algo + ")");
  if (c.learner.minibatches != 1) throw std::invalid_argument("--minibatches: V-trace only (not --algo " + algo + ")");
  if (c.model.weight_init != "default")
    throw std::invalid_argument("--weight-init: V-trace only (not --algo " + algo + ")");
}

UnrollLayout r2d2_sequence_layout(const TrainConfig& config, const EnvSpec& spec) {
  if (!spec.action.is_discrete())
    throw std::invalid_argument("--algo r2d2: needs discrete actions; " + spec.name + " has " +
                                spec.action.to_string());
  const R2D2Config& rc = config.r2d2;
  UnrollLayout layout;
  layout.observation = spec.observation;
  layout.action_width = 1;
  layout.policy_size = 1 + spec.action.num_actions;
  layout.core_size = config.model.lstm ? config.model.lstm_size : 0;
  layout.length = rc.burn_in + config.unroll_length + 1;
  layout.overlap = layout.length - (config.unroll_length - rc.sequence_overlap);
  return layout;
}

r2d2::ReplayConfig r2d2_replay_config(const TrainConfig& config) {
  const R2D2Config& rc = config.r2d2;
  r2d2::ReplayConfig replay;
  replay.capacity = rc.replay_capacity;
  replay.priority_exponent = rc.priority_exponent;
  replay.importance_exponent = rc.importance_exponent;
  replay.replay_ratio = rc.replay_ratio;
  replay.min_fill = rc.min_replay;
  replay.tolerance = 2 * config.learner.batch_size;
  replay.seed = config.seed;
  return replay;
}

}  // namespace seedrl
