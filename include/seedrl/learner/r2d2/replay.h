// R2D2's central prioritised sequence replay (Schaul et al. 2016; Kapturowski
// et al. 2019). A ring of `capacity` sequences preallocated per field in the
// observation's own dtype (uint8 stays uint8), sampled proportionally to
// p^alpha through a SumTree, with importance-sampling weights (N P(i))^-beta
// normalised by the batch maximum. New sequences get the largest priority seen
// so far (1 at first), so each is likely to be replayed soon after insertion.
//
// A rate limiter keeps the learner's samples per inserted sequence near
// `replay_ratio`: sampling waits for more inserts and inserting waits for the
// learner (which back-pressures inference and the actors). Every method is
// thread-safe; close() wakes all waiters.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

#include <torch/types.h>

#include "seedrl/learner/r2d2/sum_tree.h"
#include "seedrl/trajectory/trajectory_store.h"
#include "seedrl/util/rng.h"

namespace seedrl::r2d2 {

struct ReplayConfig {
  std::int64_t capacity = 20000;     // sequences
  double priority_exponent = 0.9;    // alpha
  double importance_exponent = 0.6;  // beta
  double replay_ratio = 0;           // samples per insert; 0: no rate limiting
  std::int64_t min_fill = 1;         // sequences before sampling starts
  std::int64_t tolerance = 256;      // samples the learner may fall behind before inserts wait
  std::uint64_t seed = 1;
  bool check_memory = true;  // refuse a capacity that does not fit in available memory
  // > 0: discrete actions, which a restored snapshot's sequences must hold as
  // integers in [0, num_actions); 0: continuous (only checked to be finite).
  std::int64_t num_actions = 0;
};

struct ReplaySample {
  UnrollBatch batch;                       // [L, B, ...] like the trajectory store's batches
  torch::Tensor weights;                   // [B] float importance weights, max 1
  std::vector<std::int64_t> indices;       // ring positions
  std::vector<std::uint64_t> generations;  // to ignore updates for overwritten sequences
  std::vector<double> probabilities;       // P(i) each was drawn with
};

struct PriorityStats {
  double mean = 0, max = 0, min = 0;
};

// Where the ring stands and the rate limiter's counters: what a snapshot
// (learner/r2d2/replay_snapshot.h) saves beside the sequences.
struct ReplayCursor {
  std::int64_t size = 0, next = 0;  // sequences held; ring position of the next insert
  std::uint64_t inserted = 0, sampled = 0;
  double max_priority = 1.0;  // what new sequences enter with
};

class Replay {
 public:
  // Throws std::invalid_argument naming --replay-capacity when the buffer
  // cannot be allocated or does not fit in available memory.
  Replay(const UnrollLayout& layout, const ReplayConfig& config);

  // Bytes the buffer needs for `capacity` sequences of `layout`.
  static std::size_t bytes_for(const UnrollLayout& layout, std::int64_t capacity);

  // Copies sequence `index` of a time-major batch in. priority < 0: the
  // largest priority so far. Waits on the rate limiter; false once closed.
  bool insert(const UnrollBatch& batch, int index, double priority = -1);
  // Draws `batch` sequences. Waits for min_fill and the rate limiter; false once closed.
  bool sample(int batch, ReplaySample& out);
  // New priorities for a sample's sequences (ignored for ones overwritten since).
  void update_priorities(const ReplaySample& sample, const std::vector<double>& priorities);
  void close();

  std::int64_t size() const;
  std::uint64_t inserted() const;
  std::uint64_t sampled() const;
  std::size_t byte_size() const { return bytes_; }
  PriorityStats priority_stats() const;
  const ReplayConfig& config() const { return config_; }
  const UnrollLayout& layout() const { return layout_; }

  // Snapshots (learner/r2d2/replay_snapshot.h). A record is one sequence's
  // fields in storage order, its policy version and its raw priority.
  std::size_t record_bytes() const;
  ReplayCursor cursor() const;
  // Copies records [first, first + count) to `out` under the lock: inserts
  // wait for one such chunk at a time, not for a whole snapshot.
  void copy_records(std::int64_t first, std::int64_t count, std::uint8_t* out) const;
  // Restoring, before any other thread uses the replay: load_records writes
  // the sequences (and returns their priorities in `priorities`), then
  // restore() takes the cursor and every priority and rebuilds the sum tree.
  // Until restore() the replay stays empty. restore() throws
  // std::invalid_argument for a cursor or priority out of range, and for
  // sequences no run writes (a non-finite value, an action outside the
  // action space, unknown step flags, every priority 0): a crafted file must
  // not reach the learner as an index error or NaN weights.
  void load_records(std::int64_t first, std::int64_t count, const std::uint8_t* in, double* priorities);
  void restore(const ReplayCursor& cursor, const std::vector<double>& priorities);

 private:
  static std::size_t checked_capacity(const UnrollLayout& layout, const ReplayConfig& config);
  bool can_sample_locked(int batch) const;
  bool can_insert_locked() const;
  void check_sequences(std::int64_t size) const;

  UnrollLayout layout_;
  ReplayConfig config_;
  std::size_t bytes_ = 0;
  torch::Tensor obs_, actions_, policy_, rewards_, flags_, core_h_, core_c_;
  std::vector<std::int64_t> versions_;
  std::vector<std::uint64_t> generation_;
  std::vector<double> priority_;  // raw p (not p^alpha)

  mutable std::mutex mu_;
  std::condition_variable insert_cv_, sample_cv_;
  SumTree tree_;
  Rng rng_;
  std::int64_t next_ = 0, size_ = 0;
  std::uint64_t inserted_ = 0, sampled_ = 0;
  double max_priority_ = 1.0;
  bool closed_ = false;
  std::vector<std::int64_t> idx_;  // scratch for the gather
};

}  // namespace seedrl::r2d2
