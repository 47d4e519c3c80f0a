#include "seedrl/learner/sac/actor_gradients.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <torch/torch.h>

#include "cpu_rows.h"

namespace seedrl::sac {

namespace {

constexpr double kHalfLog2Pi = 0.91893853320467274178;  // log(2 pi) / 2

// The one-loop path: float32 rows on a CPU.
bool loop_path(const torch::Tensor& out, const torch::Tensor& noise) {
  return out.device().is_cpu() && out.scalar_type() == torch::kFloat32 && noise.scalar_type() == torch::kFloat32;
}

// tanh(u), 1 - tanh(u)^2 and its log, in float from one expm1 of -2|u|
// (m below): tanh|u| = -m / (2 + m), 1 - tanh^2 = 4 (1 + m) / (2 + m)^2,
// log(1 - tanh^2) = 2 (log 2 - |u| - log(2 + m)). Each keeps float's
// relative precision where tanh is near 0 and where it saturates, and it
// takes two float calls where tanh, exp and log1p in double took three.
struct Squash {
  float action, slope, log_slope;  // tanh(u), 1 - tanh(u)^2, log(1 - tanh(u)^2)
};

Squash squash(float u) {
  const float x = std::fabs(u);
  const float m = std::expm1(-2.0f * x);
  const float two_m = 2.0f + m;
  return {std::copysign(-m / two_m, u), 4.0f * (1.0f + m) / (two_m * two_m),
          2.0f * (static_cast<float>(M_LN2) - x - std::log(two_m))};
}

float clamped_log_std(float log_std) {
  return std::clamp(log_std, static_cast<float>(kMinLogStd), static_cast<float>(kMaxLogStd));
}

void check_shapes(const torch::Tensor& out, const torch::Tensor& noise) {
  if (out.dim() != 2 || noise.dim() != 2 || out.size(0) != noise.size(0) || out.size(1) != 2 * noise.size(1))
    throw std::invalid_argument("squashed sample: the actor's output must be [N, 2 dim] for noise [N, dim]");
}

}  // namespace

SquashedSample squashed_sample_of(const torch::Tensor& out, const torch::Tensor& noise) {
  torch::NoGradGuard no_grad;
  check_shapes(out, noise);
  const std::int64_t n = out.size(0), dim = noise.size(1);
  if (!loop_path(out, noise)) return squashed_sample(out.narrow(1, 0, dim), out.narrow(1, dim, dim), noise);
  const torch::Tensor o = out.contiguous(), e = noise.contiguous();
  SquashedSample s{torch::empty({n, dim}, o.options()), torch::empty({n}, o.options())};
  const float* op = o.data_ptr<float>();
  const float* ep = e.data_ptr<float>();
  float* ap = s.action.data_ptr<float>();
  float* lp = s.log_prob.data_ptr<float>();
  for (std::int64_t i = 0; i < n; ++i) {
    const float* row = op + i * 2 * dim;
    double log_prob = 0;
    for (std::int64_t d = 0; d < dim; ++d) {
      const float c = clamped_log_std(row[dim + d]);
      const float noise_d = ep[i * dim + d];
      const Squash sq = squash(row[d] + std::exp(c) * noise_d);
      ap[i * dim + d] = sq.action;
      log_prob += -0.5 * static_cast<double>(noise_d) * noise_d - c - kHalfLog2Pi - sq.log_slope;
    }
    lp[i] = static_cast<float>(log_prob);
  }
  return s;
}

torch::Tensor squashed_sample_grad(const torch::Tensor& out, const torch::Tensor& noise,
                                   const torch::Tensor& action_grad, double w) {
  torch::NoGradGuard no_grad;
  check_shapes(out, noise);
  const std::int64_t n = out.size(0), dim = noise.size(1);
  if (action_grad.sizes() != noise.sizes())
    throw std::invalid_argument("squashed_sample_grad: the action's gradient must be [N, dim]");
  if (!loop_path(out, noise) || action_grad.scalar_type() != torch::kFloat32) {
    const torch::Tensor log_std = out.narrow(1, dim, dim);
    const torch::Tensor std = log_std.clamp(kMinLogStd, kMaxLogStd).exp();
    const torch::Tensor a = torch::tanh(out.narrow(1, 0, dim) + std * noise);
    const torch::Tensor grad_u = action_grad * (1 - a * a) + (2 * w) * a;
    const torch::Tensor inside = (log_std >= kMinLogStd).logical_and(log_std <= kMaxLogStd);
    return torch::cat({grad_u, (grad_u * std * noise - w) * inside}, 1);
  }
  const torch::Tensor o = out.contiguous(), e = noise.contiguous(), g = action_grad.contiguous();
  torch::Tensor grad = torch::empty({n, 2 * dim}, o.options());
  const float* op = o.data_ptr<float>();
  const float* ep = e.data_ptr<float>();
  const float* gp = g.data_ptr<float>();
  float* rp = grad.data_ptr<float>();
  for (std::int64_t i = 0; i < n; ++i) {
    const float* row = op + i * 2 * dim;
    float* grad_row = rp + i * 2 * dim;
    for (std::int64_t d = 0; d < dim; ++d) {
      const float log_std = row[dim + d];
      const float std = std::exp(clamped_log_std(log_std));
      const float noise_d = ep[i * dim + d];
      const Squash sq = squash(row[d] + std * noise_d);
      const double grad_u = static_cast<double>(gp[i * dim + d]) * sq.slope + 2 * w * sq.action;
      const bool inside = log_std >= kMinLogStd && log_std <= kMaxLogStd;
      grad_row[d] = static_cast<float>(grad_u);
      grad_row[dim + d] = inside ? static_cast<float>(grad_u * std * noise_d - w) : 0.0f;
    }
  }
  return grad;
}

ActorLossGrads actor_loss_grads(const torch::Tensor& log_prob, const torch::Tensor& q1, const torch::Tensor& q2,
                                double alpha) {
  torch::NoGradGuard no_grad;
  const double scale = -1.0 / static_cast<double>(q1.numel());
  const std::int64_t n = q1.numel();
  if (cpu_float32_rows(log_prob, n) && cpu_float32_rows(q1, n) && cpu_float32_rows(q2, n)) {
    // On a CPU one loop (the learner's thread runs it while the second
    // critic thread waits): the loss in double, the gradients as below.
    ActorLossGrads r{torch::Tensor(), torch::empty_like(q1), torch::empty_like(q2)};
    const float* lp = log_prob.data_ptr<float>();
    const float* a = q1.data_ptr<float>();
    const float* b = q2.data_ptr<float>();
    float* ga = r.q1_grad.data_ptr<float>();
    float* gb = r.q2_grad.data_ptr<float>();
    const auto g = static_cast<float>(scale), half = static_cast<float>(0.5 * scale);
    double sum = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      sum += alpha * lp[i] - std::min<double>(a[i], b[i]);
      ga[i] = a[i] < b[i] ? g : a[i] == b[i] ? half : 0.0f;
      gb[i] = b[i] < a[i] ? g : a[i] == b[i] ? half : 0.0f;
    }
    r.loss = torch::scalar_tensor(sum / static_cast<double>(n), q1.options());
    return r;
  }
  ActorLossGrads r;
  r.loss = (alpha * log_prob - torch::min(q1, q2)).mean();
  const torch::Tensor tie = (q1 == q2).to(q1.scalar_type()) * (0.5 * scale);
  r.q1_grad = (q1 < q2).to(q1.scalar_type()) * scale + tie;
  r.q2_grad = (q2 < q1).to(q2.scalar_type()) * scale + tie;
  return r;
}

torch::Tensor temperature_loss_grad(const torch::Tensor& log_alpha, double mean_log_prob, double target_entropy) {
  torch::NoGradGuard no_grad;
  return torch::full(log_alpha.sizes(), -(mean_log_prob + target_entropy), log_alpha.options().requires_grad(false));
}

}  // namespace seedrl::sac
