#include "seedrl/learner/sac/sac_losses.h"

#include <stdexcept>

#include <torch/torch.h>

namespace seedrl::sac {

torch::Tensor critic_target(const torch::Tensor& reward, const torch::Tensor& terminal, const torch::Tensor& discount,
                            const torch::Tensor& next_q1, const torch::Tensor& next_q2,
                            const torch::Tensor& next_log_prob, const torch::Tensor& alpha) {
  torch::NoGradGuard no_grad;
  const torch::Tensor soft_value = torch::min(next_q1, next_q2) - alpha.detach() * next_log_prob;
  return reward + discount * (1.0 - terminal) * soft_value;
}

torch::Tensor critic_half_loss(const torch::Tensor& q, const torch::Tensor& target) {
  return 0.5 * (q - target.detach()).pow(2).mean();
}

torch::Tensor critic_half_loss_grad(const torch::Tensor& q, const torch::Tensor& target) {
  torch::NoGradGuard no_grad;
  return (q - target) / static_cast<double>(q.numel());
}

torch::Tensor critic_loss(const torch::Tensor& q1, const torch::Tensor& q2, const torch::Tensor& target) {
  return critic_half_loss(q1, target) + critic_half_loss(q2, target);
}

torch::Tensor actor_loss(const torch::Tensor& log_prob, const torch::Tensor& q1, const torch::Tensor& q2,
                         const torch::Tensor& alpha) {
  return (alpha.detach() * log_prob - torch::min(q1, q2)).mean();
}

torch::Tensor temperature_loss(const torch::Tensor& log_alpha, const torch::Tensor& log_prob, double target_entropy) {
  return -(log_alpha * (log_prob.detach() + target_entropy)).mean();
}

void polyak_update(const std::vector<torch::Tensor>& online, const std::vector<torch::Tensor>& target, double tau) {
  if (online.size() != target.size())
    throw std::logic_error("polyak_update: the online and target networks differ in their parameters");
  torch::NoGradGuard no_grad;
  for (std::size_t i = 0; i < online.size(); ++i) target[i].mul_(1.0 - tau).add_(online[i], tau);
}

}  // namespace seedrl::sac
