#include "seedrl/learner/vtrace/vtrace.h"

#include <algorithm>
#include <cmath>

#include <torch/torch.h>

namespace seedrl {

VTraceReturns vtrace(const torch::Tensor& log_rhos, const torch::Tensor& discounts, const torch::Tensor& rewards,
                     const torch::Tensor& values, const torch::Tensor& bootstrap_value, const torch::Tensor& valid,
                     const VTraceOptions& o) {
  const bool on_cpu = log_rhos.device().is_cpu() && discounts.device().is_cpu() && rewards.device().is_cpu() &&
                      values.device().is_cpu() && bootstrap_value.device().is_cpu() && valid.device().is_cpu();
  return on_cpu ? vtrace_loop(log_rhos, discounts, rewards, values, bootstrap_value, valid, o)
                : vtrace_tensor_ops(log_rhos, discounts, rewards, values, bootstrap_value, valid, o);
}

VTraceReturns vtrace_loop(const torch::Tensor& log_rhos_in, const torch::Tensor& discounts_in,
                          const torch::Tensor& rewards_in, const torch::Tensor& values_in,
                          const torch::Tensor& bootstrap_in, const torch::Tensor& valid_in, const VTraceOptions& o) {
  torch::NoGradGuard no_grad;
  auto as_float = [](const torch::Tensor& x) { return x.to(torch::kFloat32).contiguous(); };
  const auto log_rhos = as_float(log_rhos_in), discounts = as_float(discounts_in), rewards = as_float(rewards_in),
             values = as_float(values_in), bootstrap = as_float(bootstrap_in), valid = as_float(valid_in);
  const int64_t T = log_rhos.size(0), B = log_rhos.size(1);
  VTraceReturns out;
  out.vs = torch::empty({T, B}, torch::kFloat32);
  out.advantages = torch::empty({T, B}, torch::kFloat32);
  out.pg_advantages = torch::empty({T, B}, torch::kFloat32);
  const float *lr = log_rhos.data_ptr<float>(), *g = discounts.data_ptr<float>(), *r = rewards.data_ptr<float>(),
              *v = values.data_ptr<float>(), *boot = bootstrap.data_ptr<float>(), *ok = valid.data_ptr<float>();
  float *vs = out.vs.data_ptr<float>(), *adv = out.advantages.data_ptr<float>(),
        *pg = out.pg_advantages.data_ptr<float>();
  // Backwards in time; row t+1 of the outputs carries the recursion (vs − V).
  for (int64_t t = T - 1; t >= 0; --t) {
    for (int64_t b = 0; b < B; ++b) {
      const int64_t i = t * B + b, next = i + B;
      const bool last = t == T - 1;
      const double next_v = last ? boot[b] : v[next];
      const double next_vs = last ? boot[b] : vs[next];
      const double acc_next = last ? 0.0 : vs[next] - v[next];
      const double rho = std::exp(static_cast<double>(lr[i]));
      const double keep = ok[i];  // 0 or 1
      const double gamma = g[i] * keep;
      const double delta = std::min(rho, o.rho_bar) * keep * (r[i] + gamma * next_v - v[i]);
      const double c = std::min(rho, o.c_bar) * o.lambda * keep;
      vs[i] = static_cast<float>(v[i] + delta + gamma * c * acc_next);
      const double a = (r[i] + gamma * next_vs - v[i]) * keep;
      adv[i] = static_cast<float>(a);
      pg[i] = static_cast<float>(std::min(rho, o.pg_rho_bar) * keep * a);
    }
  }
  if (log_rhos_in.scalar_type() != torch::kFloat32) {
    for (auto* x : {&out.vs, &out.advantages, &out.pg_advantages}) *x = x->to(log_rhos_in.scalar_type());
  }
  return out;
}

VTraceReturns vtrace_tensor_ops(const torch::Tensor& log_rhos, const torch::Tensor& discounts_in,
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
