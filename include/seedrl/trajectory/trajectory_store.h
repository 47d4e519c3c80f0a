// Assembles each environment's steps, centrally and in place, into unrolls of
// `length` entries where consecutive unrolls of one env share `overlap`
// entries (V-trace: T+1 entries, overlap 1 — the bootstrap step; R2D2: burn-in
// overlap). All unroll memory is preallocated as one pool per field, so the
// hot path only memcpy's rows; the learner gathers each field of a batch
// straight into a contiguous time-major tensor, one memcpy per entry. Finished unrolls go through a bounded queue: a
// full queue blocks the inference thread that finished them (back-pressure).
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include <torch/types.h>

#include "seedrl/env/spec.h"
#include "seedrl/util/bounded_queue.h"

namespace seedrl {

struct UnrollLayout {
  ArraySpec observation;
  int action_width = 1;
  int policy_size = 1;  // behaviour-policy parameters per step (logits, ...)
  int core_size = 0;    // LSTM width; 0 without a core
  int length = 21;      // entries per unroll
  int overlap = 1;      // entries shared with the previous unroll of the env
};

// One step as inference records it. Pointers are read during append only.
struct StepRecord {
  const void* obs = nullptr;
  const float* action = nullptr;
  const float* policy = nullptr;
  const float* core_h = nullptr;  // core state before this step (after any reset)
  const float* core_c = nullptr;
  float reward = 0.f;
  std::uint8_t flags = 0;  // StepFlags
};

// A batch of unrolls, time-major, as the learner consumes it.
struct UnrollBatch {
  torch::Tensor obs;             // [L, B, ...obs]
  torch::Tensor actions;         // [L, B, action_width] float
  torch::Tensor policy;          // [L, B, P] behaviour-policy parameters
  torch::Tensor rewards;         // [L, B]
  torch::Tensor flags;           // [L, B] uint8 StepFlags
  torch::Tensor core_h, core_c;  // [B, H] state before entry 0 (undefined without a core)
  torch::Tensor versions;        // [B] int64 policy version that started each unroll
  torch::Tensor slots;           // [B] int64
  // [L, B, P] the learner's policy before its update on this batch
  // (--ppo-decoupled); undefined as the store hands the batch out.
  torch::Tensor proximal;
  // [L - 1, B] value targets and advantages held for every pass over the
  // batch (--fixed-targets); undefined as the store hands the batch out.
  torch::Tensor fixed_vs, fixed_advantages;
};

class TrajectoryStore {
 public:
  TrajectoryStore(const UnrollLayout& layout, int num_slots, int queue_capacity, int max_batch);

  // Inference side. A slot is appended to by one thread at a time (its actor
  // waits for the action). Returns false once closed.
  bool append(int slot, const StepRecord& step, std::int64_t policy_version);
  // Drops the slot's partial unroll (its actor went away); the next step
  // begins a fresh one.
  void drop_partial(int slot);
  // Before the first append: slot s leaves its first (s mod (length -
  // overlap)) steps unrecorded, so that the unrolls of envs that start
  // together end in different inference rounds. Otherwise they finish in the
  // same round, a burst of one unroll per env that the learner drains while
  // inference waits on the full queue, and the phases only drift apart as
  // episodes end: with many envs, end-to-end throughput swings widely until
  // they have (bench/RESULTS.md).
  void stagger_unrolls();

  // Learner side: blocks until `batch` unrolls are queued and takes them;
  // false once closed, or once `cancel` (when given) is set: it is checked
  // every 20 ms; a cancelled call takes no unroll when the queue can hold a
  // whole batch.
  bool next_batch(int batch, UnrollBatch& out, const std::atomic<bool>* cancel = nullptr);
  // Learner side, for a consumer that copies each unroll on at once (the
  // replay inserter): blocks for one finished unroll and lends it as views of
  // the store's pool, shaped as next_batch(1) gives it ([L, 1, ...]; versions
  // and slots [1]), without gathering a copy. The views stay valid until
  // release(unroll), which hands the unroll back to be refilled. Returns the
  // unroll's index, or -1 once closed.
  int borrow_unroll(UnrollBatch& out);
  void release(int unroll) { free_.push(unroll); }
  // Learner side, before it starts: gather batches into page-locked memory
  // (a CUDA build, for a learner on a GPU), so that the learner's copy to the
  // GPU is one asynchronous transfer. Pinned blocks come from LibTorch's
  // caching host allocator, which keeps a block from reuse until the copies
  // reading it are done.
  void pin_batches(bool pinned) { pinned_ = pinned; }

  void close() {
    ready_.close();
    free_.close();
  }
  const UnrollLayout& layout() const { return layout_; }
  std::size_t queued() const { return ready_.size(); }
  std::uint64_t unrolls_completed() const { return completed_.load(std::memory_order_relaxed); }
  // Queue waits: inference blocked pushing finished unrolls (back-pressure),
  // and the learner blocked in next_batch() waiting for unrolls.
  std::uint64_t push_wait_ns() const { return push_wait_ns_.load(std::memory_order_relaxed); }
  std::uint64_t learner_wait_ns() const { return learner_wait_ns_.load(std::memory_order_relaxed); }

 private:
  struct SlotState {
    int unroll = -1;  // pool index being filled
    int pos = 0;
    int skip = 0;  // steps still to leave unrecorded (stagger_unrolls)
    std::int64_t version = 0;
  };
  void write_entry(int unroll, int pos, const StepRecord& step);
  void copy_entry(int src_unroll, int src_pos, int dst_unroll, int dst_pos);
  void write_core(int unroll, int mark, const float* h, const float* c);

  UnrollLayout layout_;
  std::size_t obs_bytes_;
  // Steps between the starts of a slot's consecutive unrolls (length - overlap).
  int stride_;
  // Core states kept per unroll: those of its entries 0, stride, 2 stride, ...,
  // each of which starts this unroll or a later one of the slot.
  int core_marks_;
  // Pools, indexed [unroll, entry, ...]; the core pools [unroll, mark, H].
  torch::Tensor obs_, actions_, policy_, rewards_, flags_, core_h_, core_c_;
  std::uint8_t* obs_ptr_;
  float *actions_ptr_, *policy_ptr_, *rewards_ptr_, *core_h_ptr_ = nullptr, *core_c_ptr_ = nullptr;
  std::uint8_t* flags_ptr_;
  std::vector<SlotState> slots_;
  std::vector<std::int64_t> unroll_version_, unroll_slot_;
  BoundedQueue<int> ready_, free_;
  std::atomic<std::uint64_t> completed_{0}, push_wait_ns_{0}, learner_wait_ns_{0};
  std::vector<int> batch_idx_;  // learner side only: indices of the batch being gathered
  bool pinned_ = false;         // pin_batches()
  // Unrolls batch_idx_ of a pool [U, L, ...] as a new contiguous batch [L, B, ...].
  torch::Tensor gather(const torch::Tensor& pool) const;
  // Mark 0 of unrolls batch_idx_ of a core-state pool [U, marks, H] as a new [B, H].
  torch::Tensor gather_core(const torch::Tensor& pool) const;
};

}  // namespace seedrl
