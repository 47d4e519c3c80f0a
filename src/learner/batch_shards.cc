#include "seedrl/learner/batch_shards.h"

namespace seedrl {

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
