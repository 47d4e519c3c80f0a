// How a data-parallel learner splits a batch of B unrolls among n replicas:
// replica r takes the contiguous unrolls [B r / n, B (r + 1) / n), as views
// (no copy). Contiguous shards keep per-unroll results (R2D2's priorities) in
// batch order when the replicas' pieces are put back together.
#pragma once

#include <cstdint>
#include <string>

#include "seedrl/trajectory/trajectory_store.h"

namespace seedrl {

struct ShardRange {
  std::int64_t start = 0, count = 0;
};

inline ShardRange shard_range(std::int64_t batch, int rank, int replicas) {
  const std::int64_t b0 = batch * rank / replicas, b1 = batch * (rank + 1) / replicas;
  return {b0, b1 - b0};
}

// Throws std::invalid_argument naming --batch-size when `batch_size` units
// ("unrolls", "sequences") cannot give each of `replicas` at least one, or
// naming --learner-devices when there is no replica.
void check_batch_splits(int batch_size, int replicas, const char* unit);

// Unrolls [start, start + count) of a time-major batch.
UnrollBatch shard_of(const UnrollBatch& batch, ShardRange range);

}  // namespace seedrl
