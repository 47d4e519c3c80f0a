#include "seedrl/learner/gradient_buckets.h"

#include <stdexcept>

#include <torch/torch.h>

namespace seedrl {

GradientBuckets::GradientBuckets(ReplicaGroup& group, int rank, std::vector<torch::Tensor> params,
                                 std::int64_t bucket_bytes)
    : group_(group), rank_(rank), params_(std::move(params)), slots_(params_.size()) {
  if (params_.empty()) throw std::invalid_argument("GradientBuckets: no parameters");
  const auto dtype = params_.front().scalar_type();
  const auto device = params_.front().device();
  // Reverse order: the last layers' gradients come first in backward.
  std::vector<std::vector<int>> groups(1);
  std::int64_t bytes = 0;
  for (int i = static_cast<int>(params_.size()) - 1; i >= 0; --i) {
    const auto& p = params_[i];
    if (p.scalar_type() != dtype || p.device() != device)
      throw std::invalid_argument("GradientBuckets: parameters must share one dtype and device");
    const std::int64_t b = p.numel() * static_cast<std::int64_t>(p.element_size());
    if (!groups.back().empty() && bytes + b > bucket_bytes) {
      groups.emplace_back();
      bytes = 0;
    }
    groups.back().push_back(i);
    bytes += b;
  }
  for (std::size_t k = 0; k < groups.size(); ++k) {
    Bucket bucket;
    std::int64_t offset = 0;
    for (int i : groups[k]) {
      slots_[i] = {static_cast<int>(k), offset, false};
      offset += params_[i].numel();
    }
    bucket.flat = torch::zeros({offset}, params_.front().options().requires_grad(false));
    bucket.params = groups[k];
    buckets_.push_back(std::move(bucket));
  }
  for (int i = 0; i < static_cast<int>(params_.size()); ++i) {
    // A leaf's hook sees its whole gradient for this backward, once.
    hooks_.push_back(params_[i].register_hook([this, i](const torch::Tensor& grad) { on_grad(i, grad); }));
  }
}

GradientBuckets::~GradientBuckets() {
  for (std::size_t i = 0; i < hooks_.size(); ++i) params_[i].remove_hook(hooks_[i]);
}

void GradientBuckets::prepare() {
  for (auto& b : buckets_) {
    b.pending = static_cast<int>(b.params.size());
    b.started = false;
    b.wait = nullptr;
  }
  for (auto& s : slots_) s.ready = false;
  next_start_ = 0;
  started_in_backward_ = 0;
  armed_ = true;
}

void GradientBuckets::on_grad(int param, const torch::Tensor& grad) {
  if (!armed_) return;  // a backward outside a data-parallel step
  Slot& s = slots_[param];
  if (s.ready) throw std::logic_error("GradientBuckets: a parameter received two gradients in one backward");
  Bucket& b = buckets_[s.bucket];
  b.flat.narrow(0, s.offset, params_[param].numel()).view_as(grad).copy_(grad);
  s.ready = true;
  if (--b.pending == 0) {
    const int before = next_start_;
    start_ready_buckets();
    started_in_backward_ += next_start_ - before;
  }
}

void GradientBuckets::start_ready_buckets() {
  while (next_start_ < static_cast<int>(buckets_.size()) && buckets_[next_start_].pending == 0) {
    Bucket& b = buckets_[next_start_++];
    b.started = true;
    b.wait = group_.allreduce_sum(rank_, b.flat);
  }
}

void GradientBuckets::finish() {
  if (!armed_) throw std::logic_error("GradientBuckets: finish() without prepare()");
  armed_ = false;
  for (auto& b : buckets_) {
    if (b.pending == 0) continue;
    for (int i : b.params) {
      if (!slots_[i].ready) b.flat.narrow(0, slots_[i].offset, params_[i].numel()).zero_();
    }
    b.pending = 0;
  }
  start_ready_buckets();
  for (auto& b : buckets_) b.wait();
  torch::NoGradGuard no_grad;
  for (int i = 0; i < static_cast<int>(params_.size()); ++i) {
    auto& p = params_[i];
    auto summed = buckets_[slots_[i].bucket].flat.narrow(0, slots_[i].offset, p.numel()).view_as(p);
    if (p.grad().defined()) {
      p.mutable_grad().copy_(summed);
    } else {
      p.mutable_grad() = summed.clone();
    }
  }
}

}  // namespace seedrl
