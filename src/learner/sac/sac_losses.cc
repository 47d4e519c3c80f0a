#include "seedrl/learner/sac/sac_losses.h"

#include <algorithm>
#include <stdexcept>

#include <torch/torch.h>

#include "cpu_rows.h"

namespace seedrl::sac {

torch::Tensor critic_target(const torch::Tensor& reward, const torch::Tensor& terminal, const torch::Tensor& discount,
                            const torch::Tensor& next_q1, const torch::Tensor& next_q2,
                            const torch::Tensor& next_log_prob, const torch::Tensor& alpha) {
  torch::NoGradGuard no_grad;
  const std::int64_t n = reward.numel();
  const bool scalar_discount = discount.numel() == 1 && discount.device().is_cpu();
  if (cpu_float32_rows(reward, n) && cpu_float32_rows(terminal, n) && cpu_float32_rows(next_q1, n) &&
      cpu_float32_rows(next_q2, n) && cpu_float32_rows(next_log_prob, n) &&
      (scalar_discount || cpu_float32_rows(discount, n)) && alpha.numel() == 1) {
    // One loop on a CPU, in double: the learner's thread runs it while the
    // second critic thread waits, and tensor ops would cost it some ten
    // dispatches.
    const double a = alpha.item<double>();
    const double d0 = scalar_discount ? discount.item<double>() : 0.0;
    const float* d = scalar_discount ? nullptr : discount.data_ptr<float>();
    const float* r = reward.data_ptr<float>();
    const float* t = terminal.data_ptr<float>();
    const float* q1 = next_q1.data_ptr<float>();
    const float* q2 = next_q2.data_ptr<float>();
    const float* lp = next_log_prob.data_ptr<float>();
    torch::Tensor y = torch::empty({n}, reward.options());
    float* yp = y.data_ptr<float>();
    for (std::int64_t i = 0; i < n; ++i) {
      const double soft_value = std::min<double>(q1[i], q2[i]) - a * lp[i];
      yp[i] = static_cast<float>(r[i] + (d ? d[i] : d0) * (1.0 - t[i]) * soft_value);
    }
    return y;
  }
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
