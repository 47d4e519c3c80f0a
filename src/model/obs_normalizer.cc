#include "seedrl/model/obs_normalizer.h"

#include <torch/torch.h>

namespace seedrl {

ObsNormalizerImpl::ObsNormalizerImpl(std::int64_t dim, double clip, double eps) : clip_(clip), eps_(eps) {
  mean_ = register_buffer("mean", torch::zeros({dim}, torch::kFloat64));
  var_ = register_buffer("var", torch::ones({dim}, torch::kFloat64));
  count_ = register_buffer("count", torch::zeros({1}, torch::kFloat64));
}

torch::Tensor ObsNormalizerImpl::forward(const torch::Tensor& x) {
  auto m = mean_.to(torch::kFloat32), s = (var_ + eps_).sqrt().to(torch::kFloat32);
  return ((x - m) / s).clamp(-clip_, clip_);
}

void ObsNormalizerImpl::update(const torch::Tensor& x_in) {
  torch::NoGradGuard no_grad;
  if (x_in.size(0) == 0) return;
  auto x = x_in.to(torch::kFloat64);
  const double n_b = static_cast<double>(x.size(0));
  auto mean_b = x.mean(0);
  auto var_b = x.var(0, /*unbiased=*/false);
  const double n_a = count_.item<double>();
  const double n = n_a + n_b;
  auto delta = mean_b - mean_;
  if (n_a == 0) {
    mean_.copy_(mean_b);
    var_.copy_(var_b);
  } else {
    mean_.add_(delta * (n_b / n));
    var_.copy_((var_ * n_a + var_b * n_b + delta.pow(2) * (n_a * n_b / n)) / n);
  }
  count_.fill_(n);
}

double ObsNormalizerImpl::count() const { return count_.item<double>(); }

}  // namespace seedrl
