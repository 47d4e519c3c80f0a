#include "seedrl/publisher/param_publisher.h"

#include <torch/torch.h>

#include "seedrl/util/device_stream.h"

namespace seedrl {

namespace {
std::vector<torch::Tensor> state_tensors(const torch::nn::Module& m) {
  auto t = m.parameters();
  auto b = m.buffers();
  t.insert(t.end(), b.begin(), b.end());
  return t;
}
}  // namespace

void ParamPublisher::publish(const torch::nn::Module& module, std::int64_t version) {
  auto snap = std::make_shared<Snapshot>();
  {
    torch::NoGradGuard no_grad;
    for (const auto& t : state_tensors(module)) snap->tensors.push_back(t.detach().clone());
  }
  // Inference reads the snapshot on streams of its own: the clones must be
  // complete before any of them can see it.
  if (!snap->tensors.empty()) synchronize_current_stream(snap->tensors.front().device());
  snap->version = version;
  {
    std::lock_guard lock(mu_);
    latest_ = std::move(snap);
  }
  version_.store(version, std::memory_order_release);
}

std::int64_t ParamPublisher::sync(torch::nn::Module& replica, std::int64_t have) {
  if (version_.load(std::memory_order_acquire) <= have) return have;
  std::shared_ptr<const Snapshot> snap;
  {
    std::lock_guard lock(mu_);
    snap = latest_;
  }
  if (!snap) return have;
  torch::NoGradGuard no_grad;
  auto dst = state_tensors(replica);
  for (std::size_t i = 0; i < dst.size(); ++i) dst[i].copy_(snap->tensors[i], /*non_blocking=*/true);
  // The snapshot's memory belongs to the learner's stream: once released it
  // may be reused there at once, so the copies must be done before `snap` goes.
  if (!dst.empty()) synchronize_current_stream(dst.front().device());
  return snap->version;
}

}  // namespace seedrl
