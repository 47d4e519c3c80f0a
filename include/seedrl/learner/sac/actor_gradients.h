// The actor's and the temperature's gradients in SAC's update written out,
// as learner/mlp_pass.h writes out the networks' passes: autograd would
// record and replay a graph of some thirty small ops on [N, dim] tensors per
// update for what is a few lines of calculus (Haarnoja et al. 2018, appendix C):
//   c = clamp(log_std), u = mean + exp(c) * noise, a = tanh(u),
//   log pi = sum_d [-noise^2 / 2 - c - log(2 pi) / 2 - log(1 - a^2)],
//   d log pi / du = 2a,  da / du = 1 - a^2,  du / dc = exp(c) * noise,  d log pi / dc = -1 (beyond du),
// and clamp passes the gradient only inside its bounds. On a CPU the sample
// and its gradient are one loop over the rows each; elsewhere tensor ops.
#pragma once

#include <torch/types.h>

#include "seedrl/model/squashed_gaussian.h"

namespace seedrl::sac {

// squashed_sample's action and log-probability for the actor's output
// [N, 2 dim] (the means, then the log-stds) and standard normal noise
// [N, dim], without a graph.
SquashedSample squashed_sample_of(const torch::Tensor& out, const torch::Tensor& noise);

// The gradient to `out` of  w * sum_i log_prob_i + sum_{i,d} action_grad_{i,d} * action_{i,d}
// for the sample squashed_sample_of(out, noise) gave ([N, 2 dim], out's dtype).
torch::Tensor squashed_sample_grad(const torch::Tensor& out, const torch::Tensor& noise,
                                   const torch::Tensor& action_grad, double w);

// The actor's loss, mean(alpha log_prob - min(q1, q2)), and its gradients to
// q1 and q2: -1/N where a critic's value is the smaller, -1/(2N) each where
// the two are equal (the rule autograd's minimum follows), 0 elsewhere.
struct ActorLossGrads {
  torch::Tensor loss, q1_grad, q2_grad;
};
ActorLossGrads actor_loss_grads(const torch::Tensor& log_prob, const torch::Tensor& q1, const torch::Tensor& q2,
                                double alpha);

// The temperature loss's gradient to log_alpha (of log_alpha's shape), from
// the batch's mean log-probability m: -(m + target_entropy). The loss itself
// is log_alpha times that.
torch::Tensor temperature_loss_grad(const torch::Tensor& log_alpha, double mean_log_prob, double target_entropy);

}  // namespace seedrl::sac
