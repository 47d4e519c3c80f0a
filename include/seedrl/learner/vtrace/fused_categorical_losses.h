// V-trace's losses for a categorical policy on the CPU, computed in one pass
// over the batch's floats with their gradients worked out in closed form,
// instead of the ~60 small tensor ops (and their autograd nodes) of
// vtrace_losses_tensor_ops, whose overhead is a large share of a small
// network's CPU update. The same losses, the same statistics, the same
// gradients with respect to the policy logits and the values (tested against
// the tensor-op version). Gradients, for a valid step t with action a,
// p = softmax(logits_t), H its entropy and n the normalizer:
//   d pg / d logit_j       = -A_t w_t (1[j = a] - p_j) / n, where w_t = 1 for
//                            plain V-trace, and r_t for the clipped surrogate
//                            while its unclipped term is the smaller (else 0)
//   d entropy / d logit_j  = -p_j (log p_j + H) / n
//   d baseline / d V_t     = -(vs_t - V_t) / n
#pragma once

#include "seedrl/learner/vtrace_learner.h"

namespace seedrl {

// Whether fused_categorical_losses computes these losses: a categorical
// policy, float32 tensors on the CPU, and not --ppo-decoupled.
bool fused_categorical_applies(const PolicyDistribution& dist, const NetOutput& out, const UnrollBatch& batch,
                               const VTraceLossConfig& config);

// The losses of vtrace_losses_from_output; `total` backpropagates into
// out.policy and out.value.
VTraceLosses fused_categorical_losses(const NetOutput& out, const UnrollBatch& batch, const VTraceLossConfig& config,
                                      double normalizer);

}  // namespace seedrl
