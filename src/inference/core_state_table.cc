#include "seedrl/inference/core_state_table.h"

#include <torch/torch.h>

namespace seedrl {

CoreState CoreStateTable::gather(const torch::Tensor& slots, const torch::Tensor& first) {
  if (!enabled()) return {};
  auto keep = (1 - first.to(torch::kFloat32)).unsqueeze(1);
  std::lock_guard lock(mu_);
  return {h_.index_select(0, slots) * keep, c_.index_select(0, slots) * keep};
}

void CoreStateTable::scatter(const torch::Tensor& slots, const CoreState& state) {
  if (!enabled()) return;
  std::lock_guard lock(mu_);
  h_.index_copy_(0, slots, state.h);
  c_.index_copy_(0, slots, state.c);
}

CoreState CoreStateTable::step(const torch::Tensor& slots, const CoreState& before, const CoreState& after) {
  if (!enabled()) return {};
  scatter(slots, after);
  return {before.h.to(torch::kCPU).contiguous(), before.c.to(torch::kCPU).contiguous()};
}

void CoreStateTable::reset(int slot) {
  if (!enabled()) return;
  std::lock_guard lock(mu_);
  h_[slot].zero_();
  c_[slot].zero_();
}

}  // namespace seedrl
