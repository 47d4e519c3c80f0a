#include "slot_pool.h"

#include <algorithm>
#include <stdexcept>

namespace seedrl::net {

SlotPool::SlotPool(int first_slot, int num_slots, std::vector<RequestBatcher*> batchers,
                   const std::vector<int>& local_envs)
    : batchers_(std::move(batchers)) {
  if (batchers_.empty()) throw std::invalid_argument("remote actors: no inference batcher to serve them");
  for (int i = num_slots - 1; i >= 0; --i) free_.push_back(first_slot + i);
  load_.assign(batchers_.size(), 0);
  for (std::size_t d = 0; d < load_.size() && d < local_envs.size(); ++d) load_[d] = local_envs[d];
}

int SlotPool::lease(std::size_t k, std::vector<int>& out) {
  std::lock_guard lock(mu_);
  if (free_.size() < k) return -1;
  for (std::size_t i = 0; i < k; ++i) {
    out.push_back(free_.back());
    free_.pop_back();
  }
  const int device = static_cast<int>(std::min_element(load_.begin(), load_.end()) - load_.begin());
  load_[device] += static_cast<int>(k);
  batchers_[device]->add_live_envs(static_cast<int>(k));  // inference batches may now wait for them
  return device;
}

void SlotPool::give_back(const std::vector<int>& slots, int device) {
  std::lock_guard lock(mu_);
  free_.insert(free_.end(), slots.rbegin(), slots.rend());
  load_[device] -= static_cast<int>(slots.size());
  batchers_[device]->add_live_envs(-static_cast<int>(slots.size()));
}

int SlotPool::free_slots() const {
  std::lock_guard lock(mu_);
  return static_cast<int>(free_.size());
}

}  // namespace seedrl::net
