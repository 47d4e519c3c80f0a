#include "seedrl/trajectory/trajectory_store.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include <torch/torch.h>

#include "seedrl/util/clock.h"
#include "seedrl/util/torch_dtype.h"

namespace seedrl {

TrajectoryStore::TrajectoryStore(const UnrollLayout& layout, int num_slots, int queue_capacity, int max_batch)
    : layout_(layout),
      obs_bytes_(layout.observation.bytes()),
      stride_(layout.length - layout.overlap),
      core_marks_((layout.length - 1) / std::max(1, layout.length - layout.overlap) + 1),
      slots_(num_slots),
      ready_(queue_capacity),
      // Every slot fills one unroll, the queue holds more, the learner takes a batch.
      free_(static_cast<std::size_t>(num_slots + queue_capacity + max_batch)) {
  if (layout.overlap < 0 || layout.overlap >= layout.length)
    throw std::invalid_argument("unroll overlap must be in [0, length)");
  const std::int64_t pool = num_slots + queue_capacity + max_batch;
  const std::int64_t L = layout.length;
  std::vector<std::int64_t> obs_shape{pool, L};
  obs_shape.insert(obs_shape.end(), layout.observation.shape.begin(), layout.observation.shape.end());
  obs_ = torch::zeros(obs_shape, torch::dtype(to_torch_dtype(layout.observation.dtype)));
  actions_ = torch::zeros({pool, L, layout.action_width});
  policy_ = torch::zeros({pool, L, layout.policy_size});
  rewards_ = torch::zeros({pool, L});
  flags_ = torch::zeros({pool, L}, torch::kUInt8);
  obs_ptr_ = static_cast<std::uint8_t*>(obs_.data_ptr());
  actions_ptr_ = actions_.data_ptr<float>();
  policy_ptr_ = policy_.data_ptr<float>();
  rewards_ptr_ = rewards_.data_ptr<float>();
  flags_ptr_ = flags_.data_ptr<std::uint8_t>();
  if (layout.core_size > 0) {
    core_h_ = torch::zeros({pool, core_marks_, layout.core_size});
    core_c_ = torch::zeros({pool, core_marks_, layout.core_size});
    core_h_ptr_ = core_h_.data_ptr<float>();
    core_c_ptr_ = core_c_.data_ptr<float>();
  }
  unroll_version_.assign(pool, 0);
  unroll_slot_.assign(pool, -1);
  for (int i = 0; i < pool; ++i) free_.push(i);
}

void TrajectoryStore::write_entry(int u, int pos, const StepRecord& s) {
  const std::size_t e = static_cast<std::size_t>(u) * layout_.length + pos;
  std::memcpy(obs_ptr_ + e * obs_bytes_, s.obs, obs_bytes_);
  std::memcpy(actions_ptr_ + e * layout_.action_width, s.action, sizeof(float) * layout_.action_width);
  std::memcpy(policy_ptr_ + e * layout_.policy_size, s.policy, sizeof(float) * layout_.policy_size);
  rewards_ptr_[e] = s.reward;
  flags_ptr_[e] = s.flags;
}

void TrajectoryStore::copy_entry(int su, int sp, int du, int dp) {
  const std::size_t s = static_cast<std::size_t>(su) * layout_.length + sp;
  const std::size_t d = static_cast<std::size_t>(du) * layout_.length + dp;
  std::memcpy(obs_ptr_ + d * obs_bytes_, obs_ptr_ + s * obs_bytes_, obs_bytes_);
  const int aw = layout_.action_width, ps = layout_.policy_size;
  std::memcpy(actions_ptr_ + d * aw, actions_ptr_ + s * aw, sizeof(float) * aw);
  std::memcpy(policy_ptr_ + d * ps, policy_ptr_ + s * ps, sizeof(float) * ps);
  rewards_ptr_[d] = rewards_ptr_[s];
  flags_ptr_[d] = flags_ptr_[s];
}

void TrajectoryStore::write_core(int u, int mark, const float* h, const float* c) {
  const std::size_t H = layout_.core_size;
  const std::size_t at = (static_cast<std::size_t>(u) * core_marks_ + mark) * H;
  std::memcpy(core_h_ptr_ + at, h, sizeof(float) * H);
  std::memcpy(core_c_ptr_ + at, c, sizeof(float) * H);
}

void TrajectoryStore::stagger_unrolls() {
  for (std::size_t s = 0; s < slots_.size(); ++s) slots_[s].skip = static_cast<int>(s % stride_);
}

bool TrajectoryStore::append(int slot, const StepRecord& step, std::int64_t policy_version) {
  SlotState& st = slots_[slot];
  if (st.skip > 0) {
    --st.skip;
    return true;
  }
  const int H = layout_.core_size;
  if (st.unroll < 0) {
    auto u = free_.pop();
    if (!u) return false;
    st.unroll = *u;
    st.pos = 0;
  }
  if (st.pos == 0) st.version = policy_version;
  // An entry at a multiple of the stride starts this unroll or a later one of
  // the slot: keep its core state as one of the unroll's marks.
  if (H > 0 && st.pos % stride_ == 0) write_core(st.unroll, st.pos / stride_, step.core_h, step.core_c);
  write_entry(st.unroll, st.pos, step);
  if (++st.pos < layout_.length) return true;

  // Unroll complete: hand it over and continue in a fresh one with the overlap.
  const int done = st.unroll;
  unroll_version_[done] = st.version;
  unroll_slot_[done] = slot;
  auto next = free_.pop();
  if (!next) return false;
  const int O = layout_.overlap;
  for (int i = 0; i < O; ++i) copy_entry(done, layout_.length - O + i, *next, i);
  // The copied entries keep their marks, one stride earlier: when the overlap
  // is longer than the stride, marks 1.. of the next unroll are never appended.
  if (H > 0 && O > 0) {
    const std::size_t at = static_cast<std::size_t>(done) * core_marks_ * H;
    for (int m = 1; m < core_marks_; ++m)
      write_core(*next, m - 1, core_h_ptr_ + at + m * static_cast<std::size_t>(H),
                 core_c_ptr_ + at + m * static_cast<std::size_t>(H));
  }
  st.unroll = *next;
  st.pos = O;
  st.version = policy_version;
  completed_.fetch_add(1, std::memory_order_relaxed);
  // Once per unroll, not per step: the clock reads are cheap here.
  const auto t0 = std::chrono::steady_clock::now();
  const bool pushed = ready_.push(done);
  push_wait_ns_.fetch_add(ns_since(t0), std::memory_order_relaxed);
  return pushed;
}

void TrajectoryStore::drop_partial(int slot) { slots_[slot].pos = 0; }

torch::Tensor TrajectoryStore::gather(const torch::Tensor& pool) const {
  // An entry's fields are contiguous in the pool, and the output is written in
  // order: one memcpy per (step, unroll). LibTorch's index_select along the
  // batch dimension of the pool's time-major view, which strides through the
  // pool, was far slower (see bench/RESULTS.md, "Micro-benchmarks",
  // BM_TrajectoryGather).
  const auto L = pool.size(1);
  const auto B = static_cast<std::int64_t>(batch_idx_.size());
  auto sizes = pool.sizes().vec();
  sizes[0] = L;
  sizes[1] = B;
  auto out = torch::empty(sizes, pool.options().pinned_memory(pinned_));
  const std::size_t entry = static_cast<std::size_t>(pool.stride(1)) * pool.element_size();
  const auto* src = static_cast<const std::uint8_t*>(pool.data_ptr());
  auto* dst = static_cast<std::uint8_t*>(out.data_ptr());
  for (std::int64_t t = 0; t < L; ++t) {
    for (const int u : batch_idx_) {
      std::memcpy(dst, src + (static_cast<std::size_t>(u) * L + t) * entry, entry);
      dst += entry;
    }
  }
  return out;
}

torch::Tensor TrajectoryStore::gather_core(const torch::Tensor& pool) const {
  const auto H = pool.size(2);
  auto out = torch::empty({static_cast<std::int64_t>(batch_idx_.size()), H}, pool.options().pinned_memory(pinned_));
  const auto* src = pool.data_ptr<float>();
  auto* dst = out.data_ptr<float>();
  for (const int u : batch_idx_) {
    std::memcpy(dst, src + static_cast<std::int64_t>(u) * pool.stride(0), sizeof(float) * H);  // mark 0
    dst += H;
  }
  return out;
}

int TrajectoryStore::borrow_unroll(UnrollBatch& out) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto u = ready_.pop();
  if (!u) return -1;
  learner_wait_ns_.fetch_add(ns_since(t0), std::memory_order_relaxed);
  auto view = [&](const torch::Tensor& pool) { return pool.select(0, *u).unsqueeze(1); };
  out.obs = view(obs_);
  out.actions = view(actions_);
  out.policy = view(policy_);
  out.rewards = view(rewards_);
  out.flags = view(flags_);
  if (layout_.core_size > 0) {
    out.core_h = core_h_.select(0, *u).narrow(0, 0, 1);  // mark 0: [1, H]
    out.core_c = core_c_.select(0, *u).narrow(0, 0, 1);
  }
  out.versions = torch::tensor({unroll_version_[*u]}, torch::kInt64);
  out.slots = torch::tensor({unroll_slot_[*u]}, torch::kInt64);
  return *u;
}

bool TrajectoryStore::next_batch(int batch, UnrollBatch& out, const std::atomic<bool>* cancel) {
  std::vector<int>& idx = batch_idx_;
  idx.resize(batch);
  const auto t0 = std::chrono::steady_clock::now();
  // One wake-up when the whole batch is queued, not one per finished unroll.
  const std::size_t got = ready_.pop_n(idx.data(), idx.size(), cancel);
  if (got < idx.size()) {
    for (std::size_t j = 0; j < got; ++j) free_.push(idx[j]);
    return false;
  }
  learner_wait_ns_.fetch_add(ns_since(t0), std::memory_order_relaxed);
  out.obs = gather(obs_);
  out.actions = gather(actions_);
  out.policy = gather(policy_);
  out.rewards = gather(rewards_);
  out.flags = gather(flags_);
  if (layout_.core_size > 0) {
    out.core_h = gather_core(core_h_);
    out.core_c = gather_core(core_c_);
  }
  out.versions = torch::empty({batch}, torch::kInt64);
  out.slots = torch::empty({batch}, torch::kInt64);
  // Raw writes: indexing a tensor element by element builds a tensor per element.
  auto* versions = out.versions.data_ptr<std::int64_t>();
  auto* slots = out.slots.data_ptr<std::int64_t>();
  for (int i = 0; i < batch; ++i) {
    versions[i] = unroll_version_[idx[i]];
    slots[i] = unroll_slot_[idx[i]];
  }
  for (int i = 0; i < batch; ++i) free_.push(idx[i]);
  return true;
}

}  // namespace seedrl
