// Soft actor-critic's objectives (Haarnoja et al. 2018, "Soft Actor-Critic
// Algorithms and Applications", eqs. 5, 7, 18), on a batch of transitions:
//   critic  y = r + discount^n * (1 - terminal) * (min_j Q'_j(s', a') - alpha * log pi(a'|s')),
//           a' ~ pi(.|s'), Q' the target critics; loss = 1/2 sum_j mean (Q_j(s, a) - y)^2.
//           `terminal` is 1 only where the episode ended by the env's rules: a
//           time-limit truncation bootstraps like any other step.
//   actor   loss = mean(alpha * log pi(a~|s) - min_j Q_j(s, a~)), a~ ~ pi(.|s) reparameterised.
//   alpha   loss = -mean(log_alpha * (log pi(a~|s) + target_entropy)), log pi held fixed;
//           target_entropy is -dim by default.
//   target  theta' <- tau * theta + (1 - tau) * theta' (Polyak averaging).
#pragma once

#include <vector>

#include <torch/types.h>

namespace seedrl::sac {

// The critics' regression target, without gradient. `discount` is gamma^n
// for each n-step transition (whose `reward` is the discounted n-step sum);
// a scalar tensor broadcasts.
torch::Tensor critic_target(const torch::Tensor& reward, const torch::Tensor& terminal, const torch::Tensor& discount,
                            const torch::Tensor& next_q1, const torch::Tensor& next_q2,
                            const torch::Tensor& next_log_prob, const torch::Tensor& alpha);

// One critic's half of the loss, 1/2 mean (Q_j(s, a) - y)^2: each critic's
// gradient comes from its own half, so the two can be taken apart.
torch::Tensor critic_half_loss(const torch::Tensor& q, const torch::Tensor& target);
// Its gradient to q, (q - y) / N, for a critic whose backward pass is taken by hand.
torch::Tensor critic_half_loss_grad(const torch::Tensor& q, const torch::Tensor& target);
torch::Tensor critic_loss(const torch::Tensor& q1, const torch::Tensor& q2, const torch::Tensor& target);

torch::Tensor actor_loss(const torch::Tensor& log_prob, const torch::Tensor& q1, const torch::Tensor& q2,
                         const torch::Tensor& alpha);

torch::Tensor temperature_loss(const torch::Tensor& log_alpha, const torch::Tensor& log_prob, double target_entropy);

// theta' <- tau * theta + (1 - tau) * theta', in place, without gradient.
void polyak_update(const std::vector<torch::Tensor>& online, const std::vector<torch::Tensor>& target, double tau);

}  // namespace seedrl::sac
