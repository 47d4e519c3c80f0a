// The fused CPU pass for a categorical policy's V-trace losses against the
// tensor-op version (whose values vtrace_loss_test checks against the
// definitions in double precision): the same losses and statistics, and the
// same gradients with respect to the logits and the values, which the fused
// pass works out in closed form instead of through autograd. Batches with
// terminations, truncations and episode starts inside the unrolls, behaviour
// policies far enough from the target's that the clip engages both ways, and
// every option the fused pass takes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include <torch/torch.h>

#include "seedrl/env/env_step.h"
#include "seedrl/learner/vtrace/fused_categorical_losses.h"
#include "seedrl/model/policy_distribution.h"

using namespace seedrl;

namespace {

constexpr int kL = 9, kB = 6, kActions = 5;

UnrollBatch random_batch(torch::Tensor target_logits) {
  UnrollBatch b;
  b.flags = torch::zeros({kL, kB}, torch::kUInt8);
  b.flags[0].fill_(kFirst);
  b.flags[3][1] = kTerminated;  // an episode end inside the unroll, then a reset
  b.flags[4][1] = kFirst;
  b.flags[5][2] = kTruncated;  // a cut-off episode: bootstraps from its last value
  b.flags[6][2] = kFirst;
  b.flags[kL - 1][3] = kTerminated;  // the bootstrap entry is terminal
  b.rewards = torch::randn({kL, kB}) * 2;
  b.policy = target_logits.detach() + torch::randn({kL, kB, kActions}) * 0.6;
  b.actions = torch::randint(0, kActions, {kL, kB, 1}).to(torch::kFloat32);
  b.versions = torch::zeros({kB}, torch::kLong);
  return b;
}

struct Result {
  VTraceLosses losses;
  torch::Tensor dlogits, dvalues;
};

Result run(bool fused, const NetOutput& leaves, const UnrollBatch& b, const VTraceLossConfig& c, double normalizer) {
  auto dist = make_categorical(kActions);
  NetOutput out{
      leaves.policy.detach().clone().requires_grad_(true), leaves.value.detach().clone().requires_grad_(true), {}};
  Result r;
  r.losses = fused ? fused_categorical_losses(out, b, c, normalizer)
                   : vtrace_losses_tensor_ops(out, *dist, b, c, torch::kCPU, normalizer);
  (r.losses.total * 1.5).backward();  // a gradient other than 1 into the total
  r.dlogits = out.policy.grad();
  r.dvalues = out.value.grad();
  return r;
}

void require_close(const torch::Tensor& got, const torch::Tensor& want, const std::string& what) {
  INFO(what << ": fused " << got << "\ntensor ops " << want);
  const double scale = std::max(1e-3, want.abs().max().item<double>());
  REQUIRE(got.sizes() == want.sizes());
  REQUIRE((got - want).abs().max().item<double>() <= 2e-5 * scale);
}

}  // namespace

TEST_CASE("fused categorical v-trace losses equal the tensor-op losses, values and gradients", "[learner][vtrace]") {
  struct Case {
    std::string name;
    double ppo_clip;
    bool normalize;
    double reward_clip, reward_scale, normalizer, lambda;
    bool fixed_targets;  // the batch carries held targets (--fixed-targets)
  };
  const Case cases[] = {
      {"plain v-trace", 0, false, 0, 1, 0, 1, false},
      {"plain, rewards clipped and scaled, lambda 0.9", 0, false, 1.0, 0.5, 0, 0.9, false},
      {"plain, a data-parallel normalizer", 0, false, 0, 1, 37, 1, false},
      {"ppo clip 0.2", 0.2, false, 0, 1, 0, 0.95, false},
      {"ppo clip 0.1, normalized advantages", 0.1, true, 0, 1, 0, 0.95, false},
      {"plain, normalized advantages", 0, true, 0, 1, 0, 1, false},
      {"ppo clip 0.1, normalized advantages, fixed targets", 0.1, true, 0, 1, 0, 0.95, true},
      {"plain, fixed targets", 0, false, 0, 1, 0, 1, true},
  };
  for (const Case& k : cases) {
    for (int seed = 0; seed < 3; ++seed) {
      DYNAMIC_SECTION(k.name << ", seed " << seed) {
        torch::manual_seed(100 + seed);
        NetOutput leaves{torch::randn({kL, kB, kActions}) * 1.5, torch::randn({kL, kB}), {}};
        UnrollBatch b = random_batch(leaves.policy);
        if (k.fixed_targets) {
          b.fixed_vs = torch::randn({kL - 1, kB});
          b.fixed_advantages = torch::randn({kL - 1, kB});
        }
        VTraceLossConfig c;
        c.discount = 0.97;
        c.baseline_cost = 0.5;
        c.entropy_cost = 0.03;
        c.ppo_clip = k.ppo_clip;
        c.normalize_advantages = k.normalize;
        c.reward_clip = k.reward_clip;
        c.reward_scale = k.reward_scale;
        c.vtrace.lambda = k.lambda;
        c.vtrace.rho_bar = 1.0;
        c.vtrace.pg_rho_bar = 1.0;
        auto dist = make_categorical(kActions);
        REQUIRE(fused_categorical_applies(*dist, leaves, b, c));

        const Result f = run(true, leaves, b, c, k.normalizer);
        const Result t = run(false, leaves, b, c, k.normalizer);
        require_close(f.losses.total, t.losses.total, "total");
        require_close(f.losses.pg, t.losses.pg, "pg");
        require_close(f.losses.baseline, t.losses.baseline, "baseline");
        require_close(f.losses.entropy, t.losses.entropy, "entropy");
        require_close(f.losses.mean_rho, t.losses.mean_rho, "mean rho");
        require_close(f.losses.clip_fraction, t.losses.clip_fraction, "clip fraction");
        require_close(f.dlogits, t.dlogits, "d total / d logits");
        require_close(f.dvalues, t.dvalues, "d total / d values");
        // The cases are not vacuous: the gradients reach the logits, and with
        // the clip some ratios lie past it and others inside it.
        REQUIRE(t.dlogits.abs().sum().item<double>() > 0);
        if (k.ppo_clip > 0) {
          const double share = t.losses.clip_fraction.item<double>() * (k.normalizer > 0 ? k.normalizer : 1);
          REQUIRE(share > 0);
        }
      }
    }
  }
}

TEST_CASE("fused v-trace losses: other distributions, devices and --ppo-decoupled take the tensor ops",
          "[learner][vtrace]") {
  NetOutput out{torch::randn({kL, kB, kActions}), torch::randn({kL, kB}), {}};
  UnrollBatch b = random_batch(out.policy);
  VTraceLossConfig c;
  REQUIRE(fused_categorical_applies(*make_categorical(kActions), out, b, c));
  REQUIRE_FALSE(fused_categorical_applies(*make_gaussian(2), out, b, c));
  NetOutput half{out.policy.to(torch::kBFloat16), out.value, {}};
  REQUIRE_FALSE(fused_categorical_applies(*make_categorical(kActions), half, b, c));
  c.ppo_clip = 0.2;
  c.ppo_decoupled = true;
  b.proximal = b.policy.clone();
  REQUIRE_FALSE(fused_categorical_applies(*make_categorical(kActions), out, b, c));
}

TEST_CASE("fused v-trace losses: a stored action outside the action set is refused in one line", "[learner][vtrace]") {
  NetOutput out{torch::randn({kL, kB, kActions}), torch::randn({kL, kB}), {}};
  UnrollBatch b = random_batch(out.policy);
  b.actions[2][3][0] = static_cast<float>(kActions);
  REQUIRE_THROWS_WITH(fused_categorical_losses(out, b, VTraceLossConfig{}, 0),
                      Catch::Contains("is not one of the 5 actions"));
}
