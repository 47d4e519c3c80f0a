#include "seedrl/learner/vtrace/vtrace.h"

#include <torch/torch.h>

namespace seedrl {

VTraceReturns vtrace(const torch::Tensor& log_rhos, const torch::Tensor& discounts_in,
                     const torch::Tensor& rewards, const torch::Tensor& values,
                     const torch::Tensor& bootstrap_value, const torch::Tensor& valid,
                     const VTraceOptions& o) {
  torch::NoGradGuard no_grad;
  // An invalid transition has no successor: nothing flows across it.
  const auto discounts = discounts_in * valid;
  const auto T = log_rhos.size(0);
  auto rhos = log_rhos.exp();
  auto clipped_rhos = rhos.clamp_max(o.rho_bar) * valid;
  auto cs = rhos.clamp_max(o.c_bar) * (o.lambda) * valid;
  auto next_values = torch::cat({values.slice(0, 1), bootstrap_value.unsqueeze(0)}, 0);
  auto deltas = clipped_rhos * (rewards + discounts * next_values - values);

  // Backward recursion on vs − V.
  auto acc = torch::zeros_like(bootstrap_value);
  std::vector<torch::Tensor> diffs(T);
  for (int64_t t = T - 1; t >= 0; --t) {
    acc = deltas[t] + discounts[t] * cs[t] * acc;
    diffs[t] = acc;
  }
  VTraceReturns out;
  out.vs = torch::stack(diffs) + values;
  auto next_vs = torch::cat({out.vs.slice(0, 1), bootstrap_value.unsqueeze(0)}, 0);
  auto pg_rhos = rhos.clamp_max(o.pg_rho_bar) * valid;
  out.advantages = (rewards + discounts * next_vs - values) * valid;
  out.pg_advantages = pg_rhos * out.advantages;
  return out;
}

}  // namespace seedrl
