// The remote server's env slots: a fixed range leased to connections K at a
// time, each lease served by one inference device. Thread-safe.
#pragma once

#include <cstddef>
#include <mutex>
#include <vector>

#include "seedrl/inference/request_batcher.h"

namespace seedrl::net {

class SlotPool {
 public:
  // Slots [first_slot, first_slot + num_slots); `batchers`: one per inference
  // device; `local_envs`: the local envs each already serves (missing: 0).
  // Throws std::invalid_argument when there is no batcher.
  SlotPool(int first_slot, int num_slots, std::vector<RequestBatcher*> batchers, const std::vector<int>& local_envs);

  // Leases k slots for a new session and picks the inference device that
  // serves all of them: the one with the fewest live envs, local ones
  // included. A session's envs stay on one device, so its STEP is one submit.
  // Returns the device, or -1 when fewer than k slots are free.
  int lease(std::size_t k, std::vector<int>& out);
  // Returns a lease's slots (after their partial unrolls were dropped).
  void give_back(const std::vector<int>& slots, int device);

  int free_slots() const;
  std::size_t devices() const { return batchers_.size(); }
  RequestBatcher& batcher(int device) { return *batchers_[device]; }

 private:
  std::vector<RequestBatcher*> batchers_;  // one per inference device
  mutable std::mutex mu_;
  std::vector<int> free_;  // guarded by mu_
  std::vector<int> load_;  // live envs per device; guarded by mu_
};

}  // namespace seedrl::net
