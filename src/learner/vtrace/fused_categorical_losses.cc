#include "seedrl/learner/vtrace/fused_categorical_losses.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "seedrl/env/env_step.h"
#include "seedrl/learner/reward_shaping.h"
#include "seedrl/learner/vtrace/vtrace.h"

namespace seedrl {
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

bool plain_cpu(const torch::Tensor& t, torch::ScalarType type) {
  return t.defined() && t.device().is_cpu() && t.scalar_type() == type;
}

struct Inputs {
  const UnrollBatch* batch;
  const VTraceLossConfig* config;
  double normalizer;
};

// Forward computes the losses and, in the same pass, their gradients with
// respect to the logits and the values; backward scales those by the
// incoming gradient of the total.
struct FusedLosses : public torch::autograd::Function<FusedLosses> {
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& logits_in, const torch::Tensor& values_in,
                               const Inputs* in) {
    const UnrollBatch& batch = *in->batch;
    const VTraceLossConfig& c = *in->config;
    const auto logits = logits_in.contiguous();
    const auto values = values_in.contiguous();
    const auto behaviour = batch.policy.to(torch::kFloat32).contiguous();
    const auto actions = batch.actions.to(torch::kFloat32).contiguous();
    const auto flags = batch.flags.contiguous();
    const auto rewards = batch.rewards.to(torch::kFloat32).contiguous();
    const std::int64_t L = logits.size(0), B = logits.size(1), A = logits.size(2), T = L - 1, N = T * B;
    if (behaviour.sizes() != logits.sizes() || values.size(0) != L || values.size(1) != B || actions.numel() != L * B ||
        flags.numel() != L * B || rewards.numel() != L * B)
      throw std::invalid_argument("v-trace losses: the batch's shapes do not match the model's output");
    const float *z = logits.data_ptr<float>(), *mu = behaviour.data_ptr<float>(), *act = actions.data_ptr<float>(),
                *rew = rewards.data_ptr<float>(), *v = values.data_ptr<float>();
    const std::uint8_t* f = flags.data_ptr<std::uint8_t>();

    auto logp = torch::empty({N, A}, torch::kFloat32);  // the target's log-softmax
    auto log_rhos = torch::empty({T, B}), discounts = torch::empty({T, B}), shaped = torch::empty({T, B}),
         valid = torch::empty({T, B});
    float *lp = logp.data_ptr<float>(), *lr = log_rhos.data_ptr<float>(), *g = discounts.data_ptr<float>(),
          *r = shaped.data_ptr<float>(), *ok = valid.data_ptr<float>();
    std::vector<float> entropy(N), target_logp(N);
    std::vector<std::int64_t> action(N);
    const auto log_softmax_at = [A](const float* x, float* out, std::int64_t a) {
      float m = x[0];
      for (std::int64_t j = 1; j < A; ++j) m = std::max(m, x[j]);
      double s = 0;
      for (std::int64_t j = 0; j < A; ++j) s += std::exp(static_cast<double>(x[j] - m));
      const float lse = m + static_cast<float>(std::log(s));
      if (out)
        for (std::int64_t j = 0; j < A; ++j) out[j] = x[j] - lse;
      return x[a] - lse;
    };
    for (std::int64_t e = 0; e < N; ++e) {
      const double af = act[e];
      if (!(af >= 0 && af < static_cast<double>(A)))
        throw std::invalid_argument("v-trace losses: a stored action (" + std::to_string(af) + ") is not one of the " +
                                    std::to_string(A) + " actions");
      const auto a = static_cast<std::int64_t>(af);
      action[e] = a;
      float* row = lp + e * A;
      target_logp[e] = log_softmax_at(z + e * A, row, a);
      double h = 0;
      for (std::int64_t j = 0; j < A; ++j) h -= std::exp(static_cast<double>(row[j])) * row[j];
      entropy[e] = static_cast<float>(h);
      lr[e] = target_logp[e] - log_softmax_at(mu + e * A, nullptr, a);
      ok[e] = is_last(f[e]) ? 0.f : 1.f;
      const float terminal_next = (f[e + B] & kTerminated) ? 1.f : 0.f;
      r[e] = static_cast<float>(shape_reward(rew[e + B], c.reward_clip, c.reward_scale));
      g[e] = static_cast<float>(c.discount * (1 - terminal_next) * ok[e]);
    }
    const bool ppo = c.ppo_clip > 0;
    torch::Tensor adv_t, vs_t;
    if (batch.fixed_vs.defined()) {  // --fixed-targets: computed before the batch's first pass
      if (batch.fixed_vs.numel() != N || batch.fixed_advantages.numel() != N)
        throw std::invalid_argument("v-trace losses: the batch's fixed targets do not match its transitions");
      vs_t = batch.fixed_vs.contiguous();
      adv_t = batch.fixed_advantages.contiguous();
    } else {
      const auto vt = vtrace_loop(log_rhos, discounts, shaped, values.slice(0, 0, T), values[T], valid, c.vtrace);
      vs_t = vt.vs;
      adv_t = ppo ? vt.advantages : vt.pg_advantages;
    }
    const float *adv = adv_t.data_ptr<float>(), *vs = vs_t.data_ptr<float>();

    double count = 0;
    for (std::int64_t e = 0; e < N; ++e) count += ok[e];
    double shift = 0, scale = 1;  // --normalize-advantages: (A - mean) / (std + 1e-8) over the valid steps
    if (c.normalize_advantages) {
      const double k = std::max(1.0, count);
      double mean = 0, var = 0;
      for (std::int64_t e = 0; e < N; ++e) mean += adv[e] * ok[e];
      mean /= k;
      for (std::int64_t e = 0; e < N; ++e) var += (adv[e] - mean) * (adv[e] - mean) * ok[e];
      shift = mean;
      scale = 1 / (std::sqrt(var / k) + 1e-8);
    }
    const double n = in->normalizer > 0 ? in->normalizer : std::max(1.0, count);

    auto dlogits = torch::zeros({L, B, A}, torch::kFloat32);
    auto dvalues = torch::zeros({L, B}, torch::kFloat32);
    float *dz = dlogits.data_ptr<float>(), *dv = dvalues.data_ptr<float>();
    const double lo = 1 - c.ppo_clip, hi = 1 + c.ppo_clip;
    double pg = 0, baseline = 0, ent = 0, rho = 0, clipped = 0;
    for (std::int64_t e = 0; e < N; ++e) {
      if (ok[e] == 0) continue;
      const double a_t = (adv[e] - shift) * scale;
      double weight = 1;  // d pg_t / d log pi(a_t) = -A_t weight
      if (ppo) {
        const double ratio = std::exp(static_cast<double>(lr[e]));
        const double unclipped = ratio * a_t, bounded = std::clamp(ratio, lo, hi) * a_t;
        pg -= std::min(unclipped, bounded);
        // min() passes the gradient to the unclipped term when it is the
        // smaller; on a tie the clamp is the identity, so it passes in full.
        weight = unclipped <= bounded ? ratio : 0;
        if (std::abs(ratio - 1) > c.ppo_clip) clipped += 1;
      } else {
        pg -= a_t * target_logp[e];
      }
      const double diff = vs[e] - v[e];
      baseline += diff * diff;
      ent += entropy[e];
      rho += std::exp(static_cast<double>(lr[e]));
      const double pg_coef = -a_t * weight / n, ent_coef = c.entropy_cost / n;
      const float* row = lp + e * A;
      float* out = dz + e * A;
      for (std::int64_t j = 0; j < A; ++j) {
        const double p = std::exp(static_cast<double>(row[j]));
        out[j] =
            static_cast<float>(pg_coef * ((j == action[e] ? 1.0 : 0.0) - p) + ent_coef * p * (row[j] + entropy[e]));
      }
      dv[e] = static_cast<float>(-c.baseline_cost * diff / n);
    }
    pg /= n;
    baseline = 0.5 * baseline / n;
    ent /= n;
    const auto scalar = [](double x) { return torch::scalar_tensor(x, torch::kFloat32); };
    variable_list outs{scalar(pg + c.baseline_cost * baseline - c.entropy_cost * ent),
                       scalar(pg),
                       scalar(baseline),
                       scalar(ent),
                       scalar(rho / n),
                       scalar(ppo ? clipped / n : 0.0)};
    ctx->mark_non_differentiable({outs[1], outs[2], outs[3], outs[4], outs[5]});
    ctx->saved_data["dlogits"] = dlogits;
    ctx->saved_data["dvalues"] = dvalues;
    return outs;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const torch::Tensor& g = grads[0];
    auto dlogits = ctx->saved_data["dlogits"].toTensor();
    auto dvalues = ctx->saved_data["dvalues"].toTensor();
    if (!g.defined()) return {torch::Tensor(), torch::Tensor(), torch::Tensor()};
    return {dlogits * g, dvalues * g, torch::Tensor()};
  }
};

}  // namespace

bool fused_categorical_applies(const PolicyDistribution& dist, const NetOutput& out, const UnrollBatch& batch,
                               const VTraceLossConfig& config) {
  return dist.is_categorical() && !(config.ppo_clip > 0 && config.ppo_decoupled && batch.proximal.defined()) &&
         plain_cpu(out.policy, torch::kFloat32) && plain_cpu(out.value, torch::kFloat32) && out.policy.dim() == 3 &&
         out.value.dim() == 2 && out.policy.size(0) >= 2 && plain_cpu(batch.policy, torch::kFloat32) &&
         plain_cpu(batch.flags, torch::kUInt8) && plain_cpu(batch.rewards, torch::kFloat32) &&
         batch.actions.defined() && batch.actions.device().is_cpu() &&
         (!batch.fixed_vs.defined() ||
          (plain_cpu(batch.fixed_vs, torch::kFloat32) && plain_cpu(batch.fixed_advantages, torch::kFloat32)));
}

VTraceLosses fused_categorical_losses(const NetOutput& out, const UnrollBatch& batch, const VTraceLossConfig& config,
                                      double normalizer) {
  const Inputs in{&batch, &config, normalizer};
  const variable_list o = FusedLosses::apply(out.policy, out.value, &in);
  return VTraceLosses{o[0], o[1], o[2], o[3], /*mean_rho=*/o[4], /*clip_fraction=*/o[5]};
}

}  // namespace seedrl
