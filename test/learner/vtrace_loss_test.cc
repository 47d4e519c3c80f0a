// The V-trace learner's losses against double-precision evaluations of their
// definitions: the policy gradient -mean(A_pg log pi(a)), the baseline
// 0.5 mean((v_s - V)^2), the mean entropy and their weighted total; and, with
// --ppo-clip, PPO's clipped surrogate -mean(min(r A, clip(r, 1 - c, 1 + c) A))
// with its gradient's defining property: a transition whose ratio is already
// past the clip in the direction its advantage pushes contributes no gradient.
// With --ppo-decoupled the ratio is taken against the proximal policy (the
// weights before the update) and the surrogate weighted by min(pg_rho_bar,
// pi_prox/mu): the same double-precision check, and a stale batch that plain
// PPO cannot learn from moves the policy. With --fixed-targets the targets and
// advantages are held from the weights before the update: the losses against
// them in double precision, and a later pass that trains on them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include <torch/torch.h>

#include "seedrl/env/env_step.h"
#include "seedrl/learner/vtrace/vtrace.h"
#include "seedrl/learner/vtrace_learner.h"
#include "seedrl/model/agent_net.h"
#include "seedrl/model/policy_distribution.h"

using namespace seedrl;

namespace {

constexpr int kL = 7, kB = 5, kActions = 3;

EnvSpec discrete_env() {
  EnvSpec s;
  s.name = "discrete";
  s.observation = ArraySpec{{4}, DType::kFloat32};
  s.action = ActionSpec::discrete(kActions);
  return s;
}

UnrollBatch batch_with(const torch::Tensor& behaviour_logits, const torch::Tensor& rewards) {
  UnrollBatch b;
  b.obs = torch::randn({kL, kB, 4});
  b.flags = torch::zeros({kL, kB}, torch::kUInt8);
  b.flags[0].fill_(kFirst);
  b.flags[3][1] = kTerminated;  // an episode end inside the unroll
  b.flags[4][1] = kFirst;
  b.rewards = rewards;
  b.policy = behaviour_logits;
  b.actions = torch::randint(0, kActions, {kL, kB, 1}).to(torch::kFloat32);
  b.versions = torch::zeros({kB}, torch::kLong);
  return b;
}

double policy_grad_sum(AgentNet& net) {
  double s = 0;
  for (const auto& p : net->named_parameters())
    if (p.key().rfind("policy.", 0) == 0 && p.value().grad().defined())
      s += p.value().grad().abs().sum().item<double>();
  return s;
}

// The reference's inputs: the network's logits (in double) and values, the
// transitions, log pi and log mu of the actions taken in double, and the
// targets and advantages of vtrace() (which vtrace_test checks on its own).
struct LossReference {
  torch::Tensor logits, values, logp, mu_logp;
  Transitions tr;
  VTraceReturns vt;
};

LossReference reference_for(AgentNet& net, const UnrollBatch& b, const VTraceLossConfig& config) {
  LossReference r;
  {
    torch::NoGradGuard no_grad;
    auto out = net->forward(b.obs, (b.flags.to(torch::kInt32) & kFirst).ne(0), {});
    r.logits = out.policy.to(torch::kFloat64);
    r.values = out.value;
  }
  r.tr = make_transitions(b.flags, b.rewards, config.discount, 0, 1);
  const auto T = kL - 1;
  auto act = b.actions.slice(0, 0, T).to(torch::kLong);
  r.logp = r.logits.slice(0, 0, T).log_softmax(-1).gather(-1, act).squeeze(-1);
  r.mu_logp = b.policy.to(torch::kFloat64).slice(0, 0, T).log_softmax(-1).gather(-1, act).squeeze(-1);
  r.vt = vtrace((r.logp - r.mu_logp).to(torch::kFloat32), r.tr.discounts, r.tr.rewards, r.values.slice(0, 0, T),
                r.values[T], r.tr.valid, config.vtrace);
  return r;
}

}  // namespace

TEST_CASE("v-trace losses equal their definitions in double precision", "[learner][vtrace]") {
  torch::manual_seed(13);
  const EnvSpec spec = discrete_env();
  auto dist = make_policy_distribution(spec.action);
  AgentNet net(spec, ModelConfig{}, dist->param_size());
  UnrollBatch b = batch_with(torch::randn({kL, kB, kActions}), torch::randn({kL, kB}));
  VTraceLossConfig config;
  config.baseline_cost = 0.7;
  config.entropy_cost = 0.03;
  config.vtrace.rho_bar = 0.9;
  config.vtrace.pg_rho_bar = 0.8;
  VTraceLosses l = vtrace_losses(net, *dist, b, config, torch::kCPU);

  const LossReference ref = reference_for(net, b, config);
  const auto& [logits, values, logp, mu_logp, tr, vt] = ref;
  const auto T = kL - 1;
  double pg = 0, baseline = 0, entropy = 0, n = 0;
  for (int t = 0; t < T; ++t)
    for (int j = 0; j < kB; ++j) {
      if (tr.valid[t][j].item<float>() == 0) continue;
      pg += vt.pg_advantages[t][j].item<double>() * logp[t][j].item<double>();
      const double err = vt.vs[t][j].item<double>() - values[t][j].item<double>();
      baseline += err * err;
      double z = 0;
      for (int a = 0; a < kActions; ++a) z += std::exp(logits[t][j][a].item<double>());
      for (int a = 0; a < kActions; ++a) {
        const double p = std::exp(logits[t][j][a].item<double>()) / z;
        entropy -= p * std::log(p);
      }
      n += 1;
    }
  REQUIRE(n == kB * T - 1);
  const double want_pg = -pg / n, want_baseline = 0.5 * baseline / n, want_entropy = entropy / n;
  CHECK(l.pg.item<double>() == Approx(want_pg).epsilon(1e-4));
  CHECK(l.baseline.item<double>() == Approx(want_baseline).epsilon(1e-4));
  CHECK(l.entropy.item<double>() == Approx(want_entropy).epsilon(1e-4));
  CHECK(l.total.item<double>() == Approx(want_pg + 0.7 * want_baseline - 0.03 * want_entropy).epsilon(1e-4));
}

TEST_CASE("ppo-clip loss equals -mean(min(rA, clip(r)A)) in double precision", "[learner][vtrace][ppo]") {
  torch::manual_seed(11);
  const EnvSpec spec = discrete_env();
  auto dist = make_policy_distribution(spec.action);
  AgentNet net(spec, ModelConfig{}, dist->param_size());
  UnrollBatch b = batch_with(torch::randn({kL, kB, kActions}), torch::randn({kL, kB}));
  VTraceLossConfig config;
  config.ppo_clip = 0.2;
  VTraceLosses l = vtrace_losses(net, *dist, b, config, torch::kCPU);

  // Reference: ratios from the logits in double, advantages from vtrace().
  const LossReference ref = reference_for(net, b, config);
  const auto& [logits, values, logp, mu_logp, tr, vt] = ref;
  const auto T = kL - 1;
  double sum = 0, n = 0;
  for (int t = 0; t < T; ++t)
    for (int j = 0; j < kB; ++j) {
      if (tr.valid[t][j].item<float>() == 0) continue;
      const double r = std::exp(logp[t][j].item<double>() - mu_logp[t][j].item<double>());
      const double a = vt.advantages[t][j].item<double>();
      sum += std::min(r * a, std::clamp(r, 0.8, 1.2) * a);
      n += 1;
    }
  REQUIRE(n == kB * T - 1);  // the terminated step has no transition
  CHECK(l.pg.item<double>() == Approx(-sum / n).epsilon(1e-4));
}

// --normalize-advantages: A' = (A - mean) / (std + 1e-8) over the valid steps,
// population std, for the plain policy gradient (rho-clipped advantages) and
// for PPO's surrogate (unclipped ones).
TEST_CASE("normalized advantages: mean 0 and std 1 over valid steps, in both pg losses", "[learner][vtrace][ppo]") {
  torch::manual_seed(13);
  const EnvSpec spec = discrete_env();
  auto dist = make_policy_distribution(spec.action);
  AgentNet net(spec, ModelConfig{}, dist->param_size());
  // Rewards far from unit scale: without normalisation the loss would scale with them.
  UnrollBatch b = batch_with(torch::randn({kL, kB, kActions}), torch::randn({kL, kB}) * 40 + 7);
  const auto T = kL - 1;
  for (double clip : {0.0, 0.2}) {
    VTraceLossConfig config;
    config.ppo_clip = clip;
    config.normalize_advantages = true;
    VTraceLosses l = vtrace_losses(net, *dist, b, config, torch::kCPU);
    const LossReference ref = reference_for(net, b, config);
    const auto& [logits, values, logp, mu_logp, tr, vt] = ref;
    const auto& adv = clip > 0 ? vt.advantages : vt.pg_advantages;
    double sum = 0, sq = 0, n = 0;
    for (int t = 0; t < T; ++t)
      for (int j = 0; j < kB; ++j)
        if (tr.valid[t][j].item<float>() != 0) {
          sum += adv[t][j].item<double>();
          n += 1;
        }
    const double mean = sum / n;
    for (int t = 0; t < T; ++t)
      for (int j = 0; j < kB; ++j)
        if (tr.valid[t][j].item<float>() != 0) sq += std::pow(adv[t][j].item<double>() - mean, 2);
    const double sd = std::sqrt(sq / n);
    REQUIRE(sd > 1);  // the rewards' scale reaches the raw advantages
    double pg = 0, magnitude = 0;
    for (int t = 0; t < T; ++t)
      for (int j = 0; j < kB; ++j) {
        if (tr.valid[t][j].item<float>() == 0) continue;
        const double a = (adv[t][j].item<double>() - mean) / (sd + 1e-8);
        double term = 0;
        if (clip > 0) {
          const double r = std::exp(logp[t][j].item<double>() - mu_logp[t][j].item<double>());
          term = std::min(r * a, std::clamp(r, 1 - clip, 1 + clip) * a);
        } else {
          term = a * logp[t][j].item<double>();
        }
        pg += term;
        magnitude += std::abs(term);
      }
    INFO("ppo clip " << clip);
    // Normalised advantages sum to zero, so the loss is a small difference of
    // O(1) terms: float32's rounding is relative to the terms, not to the result.
    CHECK(l.pg.item<double>() == Approx(-pg / n).epsilon(1e-4).margin(1e-6 * magnitude / n));

    // The helper itself: moments over valid steps only, whatever the invalid ones hold.
    auto masked = adv.clone();
    masked.masked_fill_(tr.valid.eq(0), 1e6);
    auto z = normalized_advantages(masked, tr.valid);
    CHECK(((z * tr.valid).sum() / n).item<double>() == Approx(0).margin(1e-5));
    CHECK(((z.pow(2) * tr.valid).sum() / n).item<double>() == Approx(1).epsilon(1e-4));
  }
}

TEST_CASE("ppo-clip: past the clip in the advantage's direction, no policy gradient", "[learner][vtrace][ppo]") {
  torch::manual_seed(12);
  const EnvSpec spec = discrete_env();
  auto dist = make_policy_distribution(spec.action);
  AgentNet net(spec, ModelConfig{}, dist->param_size());  // initial policy ~uniform: pi(a) ~ 1/3
  // The behaviour policy put ~0.02 on every action it took: r ~ 16 > 1.2, and
  // large positive rewards make every advantage positive.
  auto behaviour = torch::full({kL, kB, kActions}, 0.f);
  UnrollBatch b = batch_with(behaviour, torch::full({kL, kB}, 50.f));
  b.policy.scatter_(-1, b.actions.to(torch::kLong), -4.f);
  VTraceLossConfig config;
  config.entropy_cost = 0;
  config.baseline_cost = 0;
  config.ppo_clip = 0.2;
  net->zero_grad();
  vtrace_losses(net, *dist, b, config, torch::kCPU).total.backward();
  CHECK(policy_grad_sum(net) == 0);

  // Without the clip, the same batch does move the policy.
  config.ppo_clip = 0;
  net->zero_grad();
  vtrace_losses(net, *dist, b, config, torch::kCPU).total.backward();
  CHECK(policy_grad_sum(net) > 0);

  // Negative advantages with r above the clip: min() keeps r A, so gradients flow.
  b.rewards = torch::full({kL, kB}, -50.f);
  config.ppo_clip = 0.2;
  net->zero_grad();
  vtrace_losses(net, *dist, b, config, torch::kCPU).total.backward();
  CHECK(policy_grad_sum(net) > 0);
}

TEST_CASE("ppo-decoupled loss equals -mean(min(1, prox/mu) min(rA, clip(r)A)), r = pi/prox", "[learner][vtrace][ppo]") {
  torch::manual_seed(17);
  const EnvSpec spec = discrete_env();
  auto dist = make_policy_distribution(spec.action);
  AgentNet net(spec, ModelConfig{}, dist->param_size());
  UnrollBatch b = batch_with(torch::randn({kL, kB, kActions}), torch::randn({kL, kB}));
  b.proximal = torch::randn({kL, kB, kActions}) * 0.5;
  VTraceLossConfig config;
  config.ppo_clip = 0.2;
  config.ppo_decoupled = true;
  config.vtrace.pg_rho_bar = 1.0;
  VTraceLosses l = vtrace_losses(net, *dist, b, config, torch::kCPU);

  const LossReference ref = reference_for(net, b, config);
  const auto& [logits, values, logp, mu_logp, tr, vt] = ref;
  const auto T = kL - 1;
  auto act = b.actions.slice(0, 0, T).to(torch::kLong);
  const auto prox_logp = b.proximal.to(torch::kFloat64).slice(0, 0, T).log_softmax(-1).gather(-1, act).squeeze(-1);
  double sum = 0, n = 0, past = 0, weights_capped = 0;
  for (int t = 0; t < T; ++t)
    for (int j = 0; j < kB; ++j) {
      if (tr.valid[t][j].item<float>() == 0) continue;
      const double r = std::exp(logp[t][j].item<double>() - prox_logp[t][j].item<double>());
      const double w = std::exp(prox_logp[t][j].item<double>() - mu_logp[t][j].item<double>());
      const double a = vt.advantages[t][j].item<double>();
      sum += std::min(1.0, w) * std::min(r * a, std::clamp(r, 0.8, 1.2) * a);
      past += std::abs(r - 1) > 0.2 ? 1 : 0;
      weights_capped += w > 1 ? 1 : 0;
      n += 1;
    }
  REQUIRE(n == kB * T - 1);
  REQUIRE(weights_capped > 0);  // the cap at pg_rho_bar is exercised
  REQUIRE(past > 0);
  REQUIRE(past < n);
  CHECK(l.pg.item<double>() == Approx(-sum / n).epsilon(1e-4));
  CHECK(l.clip_fraction.item<double>() == Approx(past / n).epsilon(1e-6));
}

TEST_CASE("ppo-decoupled: a stale batch past plain PPO's clip still moves the policy", "[learner][vtrace][ppo]") {
  torch::manual_seed(12);
  const EnvSpec spec = discrete_env();
  auto dist = make_policy_distribution(spec.action);
  AgentNet net(spec, ModelConfig{}, dist->param_size());
  // As above: the behaviour policy put ~0.02 on each action it took (r ~ 16
  // against mu), and every advantage is positive.
  UnrollBatch b = batch_with(torch::full({kL, kB, kActions}, 0.f), torch::full({kL, kB}, 50.f));
  b.policy.scatter_(-1, b.actions.to(torch::kLong), -4.f);
  VTraceLossConfig config;
  config.entropy_cost = 0;
  config.baseline_cost = 0;
  config.ppo_clip = 0.2;
  net->zero_grad();
  VTraceLosses plain = vtrace_losses(net, *dist, b, config, torch::kCPU);
  plain.total.backward();
  REQUIRE(policy_grad_sum(net) == 0);
  CHECK(plain.clip_fraction.item<double>() == 1.0);

  // Anchored at the current weights (the proximal policy before a first
  // step): r = 1, inside the clip, and the weight min(1, prox/mu) = 1.
  config.ppo_decoupled = true;
  b.proximal = proximal_policy(net, b, torch::kCPU);
  net->zero_grad();
  VTraceLosses decoupled = vtrace_losses(net, *dist, b, config, torch::kCPU);
  decoupled.total.backward();
  CHECK(policy_grad_sum(net) > 0);
  CHECK(decoupled.clip_fraction.item<double>() == 0);

  // Anchored at the behaviour policy itself, it is plain PPO again.
  b.proximal = b.policy;
  net->zero_grad();
  vtrace_losses(net, *dist, b, config, torch::kCPU).total.backward();
  CHECK(policy_grad_sum(net) == 0);
}

TEST_CASE("ppo-decoupled: the update anchors every pass at the weights before its first step",
          "[learner][vtrace][ppo]") {
  torch::manual_seed(19);
  const EnvSpec spec = discrete_env();
  auto dist = make_policy_distribution(spec.action);
  UnrollBatch b = batch_with(torch::full({kL, kB, kActions}, 0.f), torch::randn({kL, kB}) * 5);
  b.policy.scatter_(-1, b.actions.to(torch::kLong), -4.f);  // stale: r ~ 16 against mu
  LearnerConfig config;
  config.loss.ppo_clip = 0.2;
  config.loss.ppo_decoupled = true;
  const auto clip_fraction_after = [&](int epochs, double lr) {
    torch::manual_seed(23);
    AgentNet net(spec, ModelConfig{}, dist->param_size());
    OptimizerConfig adam;
    adam.learning_rate = lr;
    auto optimizer = make_optimizer(adam, net->parameters());
    config.epochs = epochs;
    VTraceLosses l;
    vtrace_update(net, *dist, *optimizer, b, config, torch::kCPU, lr, l);
    REQUIRE_FALSE(b.proximal.defined());  // the caller's batch is left as it was
    return l.clip_fraction.item<double>();
  };
  // One pass: the anchor is the weights that take it, so no ratio leaves 1.
  CHECK(clip_fraction_after(1, 0.05) == 0);
  // A second pass keeps the first pass's anchor: the step moved the policy past the clip.
  CHECK(clip_fraction_after(2, 0.05) > 0);
}

TEST_CASE("fixed targets: the held v_s and advantages of the weights before the update, in double precision",
          "[learner][vtrace][ppo]") {
  torch::manual_seed(29);
  const EnvSpec spec = discrete_env();
  auto dist = make_policy_distribution(spec.action);
  AgentNet before(spec, ModelConfig{}, dist->param_size());
  AgentNet now(spec, ModelConfig{}, dist->param_size());  // other weights: the net some passes later
  UnrollBatch b = batch_with(torch::randn({kL, kB, kActions}), torch::randn({kL, kB}) * 3);
  VTraceLossConfig config;
  config.ppo_clip = 0.2;
  config.fixed_targets = true;
  fix_targets(before, *dist, b, config, torch::kCPU);
  const LossReference held = reference_for(before, b, config);
  REQUIRE(b.fixed_vs.sizes() == held.vt.vs.sizes());
  CHECK(torch::allclose(b.fixed_vs, held.vt.vs, 1e-5, 1e-6));
  CHECK(torch::allclose(b.fixed_advantages, held.vt.advantages, 1e-5, 1e-6));

  // The losses of `now` take its ratios and values against the held targets.
  VTraceLosses l = vtrace_losses(now, *dist, b, config, torch::kCPU);
  const LossReference ref = reference_for(now, b, config);
  const auto T = kL - 1;
  double pg = 0, baseline = 0, own_baseline = 0, n = 0;
  for (int t = 0; t < T; ++t)
    for (int j = 0; j < kB; ++j) {
      if (ref.tr.valid[t][j].item<float>() == 0) continue;
      const double r = std::exp(ref.logp[t][j].item<double>() - ref.mu_logp[t][j].item<double>());
      const double a = held.vt.advantages[t][j].item<double>();
      pg += std::min(r * a, std::clamp(r, 0.8, 1.2) * a);
      const double v = ref.values[t][j].item<double>();
      baseline += std::pow(held.vt.vs[t][j].item<double>() - v, 2);
      own_baseline += std::pow(ref.vt.vs[t][j].item<double>() - v, 2);
      n += 1;
    }
  REQUIRE(n == kB * T - 1);
  CHECK(l.pg.item<double>() == Approx(-pg / n).epsilon(1e-4));
  CHECK(l.baseline.item<double>() == Approx(0.5 * baseline / n).epsilon(1e-4));
  // Not what `now` would compute from its own values.
  REQUIRE(std::abs(baseline - own_baseline) > 1e-3 * own_baseline);

  // Without --ppo-clip the held advantages are the rho-weighted ones.
  VTraceLossConfig plain;
  plain.fixed_targets = true;
  UnrollBatch p = b;
  fix_targets(before, *dist, p, plain, torch::kCPU);
  CHECK(torch::allclose(p.fixed_advantages, reference_for(before, p, plain).vt.pg_advantages, 1e-5, 1e-6));
  REQUIRE_FALSE(p.proximal.defined());  // only --ppo-decoupled records it
}

TEST_CASE("fixed targets: every pass of an update trains on the targets of the weights before its first step",
          "[learner][vtrace][ppo]") {
  const EnvSpec spec = discrete_env();
  auto dist = make_policy_distribution(spec.action);
  torch::manual_seed(31);
  const UnrollBatch b = batch_with(torch::randn({kL, kB, kActions}), torch::randn({kL, kB}) * 3);
  LearnerConfig config;
  config.loss.ppo_clip = 0.2;
  const double lr = 0.05;
  OptimizerConfig adam;
  adam.learning_rate = lr;
  const auto fresh = [&] {
    torch::manual_seed(37);
    return AgentNet(spec, ModelConfig{}, dist->param_size());
  };
  // The second pass's losses of a two-epoch update...
  const auto second_pass = [&](bool fixed) {
    config.loss.fixed_targets = fixed;
    config.epochs = 2;
    AgentNet net = fresh();
    auto optimizer = make_optimizer(adam, net->parameters());
    VTraceLosses l;
    vtrace_update(net, *dist, *optimizer, b, config, torch::kCPU, lr, l);
    REQUIRE_FALSE(b.fixed_vs.defined());  // the caller's batch is left as it was
    return l;
  };
  // ...against the losses of the weights after one step, with the targets
  // held from the weights before it.
  config.epochs = 1;
  AgentNet start = fresh();
  AgentNet stepped = fresh();
  auto optimizer = make_optimizer(adam, stepped->parameters());
  VTraceLosses first;
  vtrace_update(stepped, *dist, *optimizer, b, config, torch::kCPU, lr, first);
  UnrollBatch held = b;
  VTraceLossConfig loss = config.loss;
  loss.fixed_targets = true;
  fix_targets(start, *dist, held, loss, torch::kCPU);
  const VTraceLosses want = vtrace_losses(stepped, *dist, held, loss, torch::kCPU);
  const VTraceLosses recomputed = vtrace_losses(stepped, *dist, b, loss, torch::kCPU);

  const VTraceLosses got = second_pass(true);
  CHECK(got.pg.item<double>() == Approx(want.pg.item<double>()).epsilon(1e-4));
  CHECK(got.baseline.item<double>() == Approx(want.baseline.item<double>()).epsilon(1e-4));
  // The default recomputes them from the stepped weights: another baseline loss.
  const VTraceLosses plain = second_pass(false);
  CHECK(plain.baseline.item<double>() == Approx(recomputed.baseline.item<double>()).epsilon(1e-4));
  REQUIRE(std::abs(want.baseline.item<double>() - recomputed.baseline.item<double>()) >
          1e-3 * recomputed.baseline.item<double>());
}
