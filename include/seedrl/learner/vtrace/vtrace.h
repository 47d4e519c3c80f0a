// V-trace off-policy targets (Espeholt et al. 2018, arXiv 1802.01561, eq. 1):
//   vs_t = V(x_t) + δ_t + γ_t c_t (vs_{t+1} − V(x_{t+1})),
//   δ_t  = ρ_t (r_t + γ_t V(x_{t+1}) − V(x_t)),
//   ρ_t  = min(ρ̄, π/μ), c_t = λ min(c̄, π/μ),
// and the policy-gradient advantage ρ_t^pg (r_t + γ_t vs_{t+1} − V(x_t)).
// All inputs are time-major [T, B]. `valid` marks transitions that exist: a
// step whose observation ended an episode has no successor in the unroll
// (the next entry is a reset), so its ρ and c are zeroed and vs_t = V(x_t).
#pragma once

#include <torch/types.h>

namespace seedrl {

struct VTraceOptions {
  double rho_bar = 1.0;     // ρ̄: clips importance weights in δ
  double c_bar = 1.0;       // c̄: clips the trace coefficients
  double pg_rho_bar = 1.0;  // clips importance weights in the policy gradient
  double lambda = 1.0;      // λ: multiplies c (IMPALA's "lambda" variant)
};

struct VTraceReturns {
  torch::Tensor vs;             // [T, B] value targets
  torch::Tensor pg_advantages;  // [T, B]
  // [T, B] r_t + γ_t vs_{t+1} − V(x_t) without the ρ^pg weight (0 where
  // invalid), for a PPO-clipped surrogate that applies its own ratio.
  torch::Tensor advantages;
};

// log_rhos = log π(a_t|x_t) − log μ(a_t|x_t); discounts = γ_t (0 at terminals);
// rewards r_t of transition t; values V(x_t); bootstrap_value V(x_T) [B];
// valid [T, B] in {0, 1}. Computed without gradient. On CPU tensors this is
// one pass over the data (vtrace_loop); on an accelerator, whole-tensor ops
// with a T-step recursion (vtrace_tensor_ops).
VTraceReturns vtrace(const torch::Tensor& log_rhos, const torch::Tensor& discounts, const torch::Tensor& rewards,
                     const torch::Tensor& values, const torch::Tensor& bootstrap_value, const torch::Tensor& valid,
                     const VTraceOptions& options);

// The two implementations behind vtrace(), exposed so both are tested on CPU.
// The loop runs over plain floats where the other launches ~5T small tensor
// ops, whose overhead is a noticeable share of a small CPU update.
VTraceReturns vtrace_loop(const torch::Tensor& log_rhos, const torch::Tensor& discounts, const torch::Tensor& rewards,
                          const torch::Tensor& values, const torch::Tensor& bootstrap_value, const torch::Tensor& valid,
                          const VTraceOptions& options);
VTraceReturns vtrace_tensor_ops(const torch::Tensor& log_rhos, const torch::Tensor& discounts,
                                const torch::Tensor& rewards, const torch::Tensor& values,
                                const torch::Tensor& bootstrap_value, const torch::Tensor& valid,
                                const VTraceOptions& options);

}  // namespace seedrl
