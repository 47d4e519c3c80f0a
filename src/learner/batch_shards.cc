#include "seedrl/learner/batch_shards.h"

#include <stdexcept>

namespace seedrl {

void check_batch_splits(int batch_size, int replicas, const char* unit) {
  if (replicas < 1) throw std::invalid_argument("--learner-devices: no learner device");
  if (batch_size < replicas)
    throw std::invalid_argument("--batch-size: " + std::to_string(batch_size) + " " + unit +
                                " cannot be split across " + std::to_string(replicas) +
                                " learner devices (--learner-devices); give every device at least one");
}

UnrollBatch shard_of(const UnrollBatch& b, ShardRange range) {
  const auto [start, count] = range;
  UnrollBatch s;
  s.obs = b.obs.narrow(1, start, count);
  s.actions = b.actions.narrow(1, start, count);
  s.policy = b.policy.narrow(1, start, count);
  s.rewards = b.rewards.narrow(1, start, count);
  s.flags = b.flags.narrow(1, start, count);
  if (b.core_h.defined()) {
    s.core_h = b.core_h.narrow(0, start, count);
    s.core_c = b.core_c.narrow(0, start, count);
  }
  if (b.versions.defined()) s.versions = b.versions.narrow(0, start, count);
  if (b.slots.defined()) s.slots = b.slots.narrow(0, start, count);
  return s;
}

}  // namespace seedrl
