#include "seedrl/learner/r2d2/replay.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include <torch/torch.h>

#include "seedrl/env/env_step.h"
#include "seedrl/util/available_memory.h"
#include "seedrl/util/torch_dtype.h"

namespace seedrl::r2d2 {

namespace {

std::string mib(std::size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

std::size_t Replay::bytes_for(const UnrollLayout& l, std::int64_t capacity) {
  const std::size_t per_entry = l.observation.bytes() + sizeof(float) * (l.action_width + l.policy_size + 1) + 1;
  const std::size_t per_seq = per_entry * static_cast<std::size_t>(l.length) +
                              sizeof(float) * 2 * static_cast<std::size_t>(l.core_size) + 64;  // + bookkeeping
  return per_seq * static_cast<std::size_t>(capacity);
}

// Checks the capacity before anything is allocated for it.
std::size_t Replay::checked_capacity(const UnrollLayout& layout, const ReplayConfig& config) {
  if (config.capacity <= 0) throw std::invalid_argument("--replay-capacity: must be positive");
  if (config.min_fill > config.capacity)
    throw std::invalid_argument("--min-replay: " + std::to_string(config.min_fill) + " exceeds --replay-capacity " +
                                std::to_string(config.capacity));
  const std::size_t bytes = bytes_for(layout, config.capacity);
  if (config.check_memory) {
    const std::size_t avail = available_memory_bytes();
    if (avail > 0 && bytes > avail * 9 / 10)
      throw std::invalid_argument("--replay-capacity: " + std::to_string(config.capacity) + " sequences of " +
                                  std::to_string(layout.length) + " steps need " + mib(bytes) + ", more than the " +
                                  mib(avail) + " of memory available");
  }
  return static_cast<std::size_t>(config.capacity);
}

Replay::Replay(const UnrollLayout& layout, const ReplayConfig& config)
    : layout_(layout),
      config_(config),
      bytes_(bytes_for(layout, config.capacity)),
      tree_(checked_capacity(layout, config)),
      rng_(derive_seed(config.seed, 0x2E91A7ull)) {
  const std::int64_t C = config.capacity, L = layout.length;
  try {
    std::vector<std::int64_t> obs_shape{C, L};
    obs_shape.insert(obs_shape.end(), layout.observation.shape.begin(), layout.observation.shape.end());
    obs_ = torch::zeros(obs_shape, torch::dtype(to_torch_dtype(layout.observation.dtype)));
    actions_ = torch::zeros({C, L, layout.action_width});
    policy_ = torch::zeros({C, L, layout.policy_size});
    rewards_ = torch::zeros({C, L});
    flags_ = torch::zeros({C, L}, torch::kUInt8);
    if (layout.core_size > 0) {
      core_h_ = torch::zeros({C, layout.core_size});
      core_c_ = torch::zeros({C, layout.core_size});
    }
  } catch (const c10::Error&) {
    throw std::invalid_argument("--replay-capacity: cannot allocate " + mib(bytes_) + " for " + std::to_string(C) +
                                " sequences");
  }
  versions_.assign(C, 0);
  generation_.assign(C, 0);
  priority_.assign(C, 0.0);
}

bool Replay::can_insert_locked() const {
  if (config_.replay_ratio <= 0 || size_ < config_.min_fill) return true;
  // Samples owed to the data inserted since sampling became possible.
  const double owed =
      config_.replay_ratio * static_cast<double>(inserted_ - static_cast<std::uint64_t>(config_.min_fill)) -
      static_cast<double>(sampled_);
  return owed <= static_cast<double>(config_.tolerance);
}

bool Replay::can_sample_locked(int batch) const {
  if (size_ < std::max<std::int64_t>(1, config_.min_fill)) return false;
  if (config_.replay_ratio <= 0) return true;
  const double allowed =
      config_.replay_ratio * static_cast<double>(inserted_ - static_cast<std::uint64_t>(config_.min_fill)) +
      static_cast<double>(batch);
  return static_cast<double>(sampled_ + static_cast<std::uint64_t>(batch)) <= allowed;
}

bool Replay::insert(const UnrollBatch& b, int index, double priority) {
  std::unique_lock lock(mu_);
  insert_cv_.wait(lock, [&] { return closed_ || can_insert_locked(); });
  if (closed_) return false;
  const std::int64_t pos = next_;
  next_ = (next_ + 1) % config_.capacity;
  size_ = std::min(size_ + 1, config_.capacity);
  // Copies under the lock: a concurrent sample never sees a half-written sequence.
  obs_[pos].copy_(b.obs.select(1, index));
  actions_[pos].copy_(b.actions.select(1, index));
  policy_[pos].copy_(b.policy.select(1, index));
  rewards_[pos].copy_(b.rewards.select(1, index));
  flags_[pos].copy_(b.flags.select(1, index));
  if (layout_.core_size > 0) {
    core_h_[pos].copy_(b.core_h[index]);
    core_c_[pos].copy_(b.core_c[index]);
  }
  versions_[pos] = b.versions.defined() ? b.versions.data_ptr<std::int64_t>()[index] : 0;
  ++generation_[pos];
  const double p = priority < 0 ? max_priority_ : priority;
  max_priority_ = std::max(max_priority_, p);
  priority_[pos] = p;
  tree_.set(static_cast<std::size_t>(pos), std::pow(p, config_.priority_exponent));
  ++inserted_;
  lock.unlock();
  sample_cv_.notify_all();
  return true;
}

bool Replay::sample(int batch, ReplaySample& out) {
  std::unique_lock lock(mu_);
  sample_cv_.wait(lock, [&] { return closed_ || can_sample_locked(batch); });
  if (closed_) return false;
  out.indices.resize(batch);
  out.generations.resize(batch);
  out.probabilities.resize(batch);
  out.weights = torch::empty({batch}, torch::kFloat32);
  float* w = out.weights.data_ptr<float>();
  const double total = tree_.total();
  // With alpha 0 every held sequence's p^alpha is 1 and total() is size_
  // exactly, so the tree's walk lands on floor(u): the same draw, taken
  // without the walk's cache misses through a tree as large as the replay.
  const bool uniform = config_.priority_exponent == 0;
  double wmax = 0;
  for (int i = 0; i < batch; ++i) {
    const double u = rng_.uniform() * total;
    const std::size_t k =
        uniform ? std::min(static_cast<std::size_t>(u), static_cast<std::size_t>(size_ - 1)) : tree_.find_prefix_sum(u);
    const double prob = tree_.get(k) / total;
    out.indices[i] = static_cast<std::int64_t>(k);
    out.generations[i] = generation_[k];
    out.probabilities[i] = prob;
    const double wi = std::pow(static_cast<double>(size_) * prob, -config_.importance_exponent);
    w[i] = static_cast<float>(wi);
    wmax = std::max(wmax, wi);
  }
  for (int i = 0; i < batch; ++i) w[i] = static_cast<float>(w[i] / wmax);
  auto index = torch::from_blob(out.indices.data(), {batch}, torch::kInt64);
  auto& ub = out.batch;
  ub.obs = obs_.index_select(0, index).transpose(0, 1);
  ub.actions = actions_.index_select(0, index).transpose(0, 1);
  ub.policy = policy_.index_select(0, index).transpose(0, 1);
  ub.rewards = rewards_.index_select(0, index).transpose(0, 1);
  ub.flags = flags_.index_select(0, index).transpose(0, 1);
  if (layout_.core_size > 0) {
    ub.core_h = core_h_.index_select(0, index);
    ub.core_c = core_c_.index_select(0, index);
  }
  ub.versions = torch::empty({batch}, torch::kInt64);
  auto* v = ub.versions.data_ptr<std::int64_t>();
  for (int i = 0; i < batch; ++i) v[i] = versions_[out.indices[i]];
  ub.slots = torch::Tensor();
  sampled_ += static_cast<std::uint64_t>(batch);
  lock.unlock();
  insert_cv_.notify_all();
  return true;
}

void Replay::update_priorities(const ReplaySample& s, const std::vector<double>& priorities) {
  if (priorities.size() != s.indices.size())
    throw std::invalid_argument("update_priorities: one priority per sampled sequence");
  std::lock_guard lock(mu_);
  for (std::size_t i = 0; i < priorities.size(); ++i) {
    const auto k = s.indices[i];
    if (generation_[k] != s.generations[i]) continue;  // overwritten since it was sampled
    const double p = priorities[i];
    if (!std::isfinite(p) || p < 0) throw std::invalid_argument("update_priorities: priority must be finite and >= 0");
    priority_[k] = p;
    max_priority_ = std::max(max_priority_, p);
    tree_.set(static_cast<std::size_t>(k), std::pow(p, config_.priority_exponent));
  }
}

void Replay::close() {
  {
    std::lock_guard lock(mu_);
    closed_ = true;
  }
  insert_cv_.notify_all();
  sample_cv_.notify_all();
}

std::int64_t Replay::size() const {
  std::lock_guard lock(mu_);
  return size_;
}
std::uint64_t Replay::inserted() const {
  std::lock_guard lock(mu_);
  return inserted_;
}
std::uint64_t Replay::sampled() const {
  std::lock_guard lock(mu_);
  return sampled_;
}

PriorityStats Replay::priority_stats() const {
  std::lock_guard lock(mu_);
  PriorityStats s;
  if (size_ == 0) return s;
  s.min = priority_[0];
  for (std::int64_t i = 0; i < size_; ++i) {
    s.mean += priority_[i];
    s.max = std::max(s.max, priority_[i]);
    s.min = std::min(s.min, priority_[i]);
  }
  s.mean /= static_cast<double>(size_);
  return s;
}

namespace {

// A stored field of every sequence: its storage and bytes per sequence.
struct Field {
  std::uint8_t* base;
  std::size_t bytes;
};

}  // namespace

std::size_t Replay::record_bytes() const {
  std::size_t n = sizeof(std::int64_t) + sizeof(double);  // version, priority
  for (const auto* t : {&obs_, &actions_, &policy_, &rewards_, &flags_, &core_h_, &core_c_})
    if (t->defined()) n += t->nbytes() / static_cast<std::size_t>(config_.capacity);
  return n;
}

ReplayCursor Replay::cursor() const {
  std::lock_guard lock(mu_);
  return {size_, next_, inserted_, sampled_, max_priority_};
}

namespace {

template <class Fn>
void for_each_field(const std::vector<const torch::Tensor*>& tensors, std::int64_t capacity, Fn fn) {
  for (const auto* t : tensors)
    if (t->defined())
      fn(Field{static_cast<std::uint8_t*>(t->data_ptr()), t->nbytes() / static_cast<std::size_t>(capacity)});
}

}  // namespace

void Replay::copy_records(std::int64_t first, std::int64_t count, std::uint8_t* out) const {
  const std::vector<const torch::Tensor*> tensors{&obs_, &actions_, &policy_, &rewards_, &flags_, &core_h_, &core_c_};
  std::lock_guard lock(mu_);
  if (first < 0 || count < 0 || first + count > config_.capacity) throw std::out_of_range("Replay::copy_records");
  for (std::int64_t i = first; i < first + count; ++i) {
    for_each_field(tensors, config_.capacity, [&](const Field& f) {
      std::memcpy(out, f.base + static_cast<std::size_t>(i) * f.bytes, f.bytes);
      out += f.bytes;
    });
    std::memcpy(out, &versions_[i], sizeof(std::int64_t));
    out += sizeof(std::int64_t);
    std::memcpy(out, &priority_[i], sizeof(double));
    out += sizeof(double);
  }
}

void Replay::load_records(std::int64_t first, std::int64_t count, const std::uint8_t* in, double* priorities) {
  const std::vector<const torch::Tensor*> tensors{&obs_, &actions_, &policy_, &rewards_, &flags_, &core_h_, &core_c_};
  std::lock_guard lock(mu_);
  if (first < 0 || count < 0 || first + count > config_.capacity) throw std::out_of_range("Replay::load_records");
  for (std::int64_t i = first; i < first + count; ++i) {
    for_each_field(tensors, config_.capacity, [&](const Field& f) {
      std::memcpy(f.base + static_cast<std::size_t>(i) * f.bytes, in, f.bytes);
      in += f.bytes;
    });
    std::memcpy(&versions_[i], in, sizeof(std::int64_t));
    in += sizeof(std::int64_t);
    std::memcpy(&priorities[i - first], in, sizeof(double));
    in += sizeof(double);
  }
}

void Replay::check_sequences(std::int64_t size) const {
  if (size == 0) return;
  const auto first_bad = [size](const torch::Tensor& bad) -> std::int64_t {
    const torch::Tensor per_sequence = bad.narrow(0, 0, size).reshape({size, -1}).any(1);
    return per_sequence.any().item<bool>() ? per_sequence.nonzero()[0][0].item<std::int64_t>() : -1;
  };
  const auto refuse = [](std::int64_t i, const std::string& what) {
    throw std::invalid_argument("sequence " + std::to_string(i) + " holds " + what);
  };
  const std::pair<const torch::Tensor*, const char*> floats[] = {
      {&actions_, "a non-finite action"},         {&policy_, "a non-finite policy value"},
      {&rewards_, "a non-finite reward"},         {&core_h_, "a non-finite recurrent state"},
      {&core_c_, "a non-finite recurrent state"}, {&obs_, "a non-finite observation"}};
  for (const auto& [t, what] : floats)
    // The policy record is R2D2's Q-values (finite); SAC's is a log-probability, left unchecked.
    if (t->defined() && t->is_floating_point() && (t != &policy_ || config_.num_actions > 0))
      if (const std::int64_t i = first_bad(~torch::isfinite(*t)); i >= 0) refuse(i, what);
  if (config_.num_actions > 0) {
    const torch::Tensor a = actions_.narrow(0, 0, size);
    if (const std::int64_t i = first_bad(a.lt(0) | a.ge(static_cast<double>(config_.num_actions)) | a.ne(a.floor()));
        i >= 0)
      refuse(i, "an action outside 0.." + std::to_string(config_.num_actions - 1));
  }
  constexpr int kKnownFlags = kFirst | kTerminated | kTruncated | kLifeLost;
  if (const std::int64_t i = first_bad(flags_.bitwise_and(~kKnownFlags & 0xFF).ne(0)); i >= 0)
    refuse(i, "unknown step flags");
}

void Replay::restore(const ReplayCursor& c, const std::vector<double>& priorities) {
  const std::int64_t C = config_.capacity;
  if (c.size < 0 || c.size > C)
    throw std::invalid_argument("holds " + std::to_string(c.size) + " sequences, more than the capacity " +
                                std::to_string(C));
  if (c.next < 0 || c.next >= C || (c.size < C && c.next != c.size))
    throw std::invalid_argument("insert position " + std::to_string(c.next) + " does not fit " +
                                std::to_string(c.size) + " of " + std::to_string(C) + " sequences");
  if (c.inserted < static_cast<std::uint64_t>(c.size))
    throw std::invalid_argument(std::to_string(c.inserted) + " sequences inserted, fewer than the " +
                                std::to_string(c.size) + " held");
  if (!std::isfinite(c.max_priority) || c.max_priority <= 0)
    throw std::invalid_argument("largest priority " + std::to_string(c.max_priority) + " is not finite and positive");
  if (priorities.size() != static_cast<std::size_t>(c.size)) throw std::invalid_argument("one priority per sequence");
  std::vector<double> leaves(static_cast<std::size_t>(C), 0.0);
  double total = 0;
  for (std::size_t i = 0; i < priorities.size(); ++i) {
    const double p = priorities[i];
    leaves[i] = std::pow(p, config_.priority_exponent);
    if (!std::isfinite(p) || p < 0 || !std::isfinite(leaves[i]))
      throw std::invalid_argument("sequence " + std::to_string(i) + " has priority " + std::to_string(p) +
                                  " (must be finite and >= 0)");
    total += leaves[i];
  }
  if (!std::isfinite(total)) throw std::invalid_argument("the priorities' sum is not finite");
  if (c.size > 0 && !(total > 0)) throw std::invalid_argument("every sequence has priority 0 (none could be sampled)");
  check_sequences(c.size);
  std::lock_guard lock(mu_);
  for (std::size_t i = 0; i < leaves.size(); ++i) tree_.set(i, leaves[i]);
  std::copy(priorities.begin(), priorities.end(), priority_.begin());
  std::fill(priority_.begin() + c.size, priority_.end(), 0.0);
  std::fill(generation_.begin(), generation_.begin() + c.size, 1);
  size_ = c.size;
  next_ = c.next;
  inserted_ = c.inserted;
  max_priority_ = std::max(c.max_priority, *std::max_element(priority_.begin(), priority_.end()));
  // The learner may not run ahead of the replay ratio of this run (which may
  // differ from the saved one's); it may not owe more samples than it could take.
  sampled_ = c.sampled;
  if (config_.replay_ratio > 0) {
    const auto min_fill = static_cast<std::uint64_t>(config_.min_fill);
    const double allowed =
        inserted_ >= min_fill ? std::floor(config_.replay_ratio * static_cast<double>(inserted_ - min_fill)) : 0.0;
    if (allowed < static_cast<double>(sampled_)) sampled_ = static_cast<std::uint64_t>(allowed);
  }
}

}  // namespace seedrl::r2d2
