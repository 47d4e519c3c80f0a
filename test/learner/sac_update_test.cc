// SAC's update learns what a closed form says it should: on a one-step
// continuous bandit with reward -(a - 0.5)^2 from off-policy data (uniform
// actions), the critics fit the reward (terminal transitions: the target is
// the reward) and the actor's deterministic action moves to the optimum 0.5;
// the temperature follows the target entropy; the targets trail the critics.
#include <catch2/catch.hpp>

#include <cmath>

#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>

#include "seedrl/learner/sac/sac_update.h"
#include "seedrl/model/sac_net.h"
#include "seedrl/model/squashed_gaussian.h"

using namespace seedrl;

namespace {

EnvSpec bandit_spec() {
  EnvSpec spec;
  spec.name = "bandit";
  spec.observation.shape = {2};
  spec.action = ActionSpec::box({-1.0f}, {1.0f});
  return spec;
}

sac::TransitionBatch bandit_batch(int n, at::Generator& g) {
  sac::TransitionBatch b;
  b.obs = torch::randn({n, 2}, g, torch::kFloat32);
  b.action = torch::rand({n, 1}, g, torch::kFloat32) * 2 - 1;
  b.reward = -(b.action.squeeze(1) - 0.5).pow(2);
  b.terminal = torch::ones({n});
  b.next_obs = torch::randn({n, 2}, g, torch::kFloat32);
  b.discount = torch::tensor(0.99f);
  return b;
}

}  // namespace

TEST_CASE("SAC learns a continuous bandit's optimum and its reward from off-policy data", "[learner][sac]") {
  // Also with the hidden layers' matmuls on bfloat16 operands (--precision bf16).
  const bool bf16 = GENERATE(false, true);
  INFO("bf16 matmuls " << bf16);
  torch::manual_seed(3);
  ModelConfig mc;
  mc.hidden = {64, 64};
  SacNet net(bandit_spec(), mc, 1.0);
  sac::SacSettings settings;
  settings.target_entropy = -1.0;
  settings.learning_rate = 1e-3;
  settings.bf16_matmuls = bf16;
  sac::SacUpdater updater(net, settings);
  at::Generator g = at::detail::createCPUGenerator(11);
  const double alpha_start = net->log_alpha.exp().item<double>();
  const sac::SacStats first = updater.update(bandit_batch(128, g), g);
  sac::SacStats last;
  for (int step = 1; step < 1500; ++step) last = updater.update(bandit_batch(128, g), g);

  torch::NoGradGuard no_grad;
  const auto obs = torch::randn({16, 2}, g, torch::kFloat32);
  const auto mode = sac::squashed_mode(net->actor->forward(obs).mean);
  INFO("deterministic actions " << mode.squeeze(1));
  CHECK((mode - 0.5).abs().max().item<double>() < 0.1);
  for (const double a : {-0.5, 0.0, 0.5, 0.9}) {
    const auto q = net->q1->forward(obs, torch::full({16, 1}, a));
    INFO("a = " << a << ", Q " << q);
    // A fit from 1,500 noisy batches, loosest at a = 0, the data's edge
    // (about 0.055 in float32); bfloat16 kernels (AMX, AVX512-BF16) move it
    // by a few thousandths.
    CHECK((q + (a - 0.5) * (a - 0.5)).abs().max().item<double>() < 0.08);
  }
  // Above its target entropy of -1 the policy narrows and the temperature falls.
  INFO("entropy " << first.entropy << " -> " << last.entropy << ", alpha " << alpha_start << " -> " << last.alpha);
  CHECK(first.alpha == Approx(alpha_start));
  CHECK(last.entropy < first.entropy - 0.3);
  CHECK(last.alpha < 0.5 * alpha_start);
  CHECK(std::isfinite(last.critic_loss));
  CHECK(last.critic_loss < 0.01);
  // The targets trail the critics: close, not equal.
  const auto online = net->critic_parameters(), target = net->target_parameters();
  double gap = 0;
  for (std::size_t i = 0; i < online.size(); ++i) gap += (online[i] - target[i]).abs().sum().item<double>();
  CHECK(gap > 0);
}

TEST_CASE("SAC refuses discrete actions and images in one line naming the flag", "[learner][sac]") {
  ModelConfig mc;
  EnvSpec discrete = bandit_spec();
  discrete.action = ActionSpec::discrete(3);
  CHECK_THROWS_WITH(SacNet(discrete, mc, 1.0), Catch::Contains("--algo sac") && Catch::Contains("discrete"));
  EnvSpec image = bandit_spec();
  image.observation.shape = {10, 10, 4};
  CHECK_THROWS_WITH(SacNet(image, mc, 1.0), Catch::Contains("--model"));
  CHECK_THROWS_WITH(SacNet(bandit_spec(), mc, 0.0), Catch::Contains("--init-temperature"));
}

TEST_CASE("SAC's target critics start as copies of the critics and take no gradient", "[learner][sac]") {
  torch::manual_seed(4);
  SacNet net(bandit_spec(), ModelConfig{}, 0.5);
  const auto online = net->critic_parameters(), target = net->target_parameters();
  REQUIRE(online.size() == target.size());
  for (std::size_t i = 0; i < online.size(); ++i) {
    CHECK(torch::equal(online[i], target[i]));
    CHECK_FALSE(target[i].requires_grad());
  }
  CHECK(net->log_alpha.exp().item<double>() == Approx(0.5));
}

TEST_CASE("SAC's twin critics side by side make the update they make in turn", "[learner][sac]") {
  const bool bf16 = GENERATE(false, true);
  INFO("bf16 matmuls " << bf16);
  ModelConfig mc;
  mc.hidden = {32, 32};
  torch::manual_seed(6);
  SacNet in_turn(bandit_spec(), mc, 0.7), side_by_side(bandit_spec(), mc, 0.7), again(bandit_spec(), mc, 0.7);
  {
    torch::NoGradGuard no_grad;
    const auto from = in_turn->parameters();
    for (SacNet* to : {&side_by_side, &again})
      for (std::size_t i = 0; i < from.size(); ++i) (*to)->parameters()[i].copy_(from[i]);
  }
  sac::SacSettings settings;
  settings.target_entropy = -1.0;
  settings.learning_rate = 3e-3;
  settings.bf16_matmuls = bf16;
  sac::SacUpdater one(in_turn, settings);
  settings.critic_threads = 2;
  sac::SacUpdater two(side_by_side, settings), two_again(again, settings);
  at::Generator data = at::detail::createCPUGenerator(12);
  for (int step = 0; step < 20; ++step) {
    // Batches of changing size: the passes remake their buffers.
    const sac::TransitionBatch b = bandit_batch(64 + 61 * (step % 4), data);
    at::Generator ga = at::detail::createCPUGenerator(500 + step), gb = at::detail::createCPUGenerator(500 + step),
                  gc = at::detail::createCPUGenerator(500 + step);
    const sac::SacStats a = one.update(b, ga), c = two.update(b, gb), d = two_again.update(b, gc);
    CHECK(c.critic_loss == Approx(a.critic_loss).epsilon(1e-5));
    CHECK(c.actor_loss == Approx(a.actor_loss).epsilon(1e-5).margin(1e-6));
    CHECK(c.entropy == Approx(a.entropy).epsilon(1e-5));
    CHECK(d.actor_loss == c.actor_loss);
  }
  // The same operations on the same numbers, on two threads: equal to the
  // update in turn up to float rounding (a kernel beside another may round a
  // sum differently), and the same bit for bit from one run to the next.
  const auto pa = in_turn->named_parameters(), pb = side_by_side->named_parameters(), pc = again->named_parameters();
  for (const auto& item : pa) {
    INFO(item.key());
    CHECK(torch::allclose(item.value(), pb[item.key()], 1e-4, 1e-6));
    CHECK(torch::equal(pb[item.key()], pc[item.key()]));
    CHECK(item.value().requires_grad() == pb[item.key()].requires_grad());
  }
  // Every part moved from where it started.
  torch::manual_seed(6);
  SacNet start(bandit_spec(), mc, 0.7);
  CHECK_FALSE(torch::equal(start->q2->parameters()[0], side_by_side->q2->parameters()[0]));
  CHECK_FALSE(torch::equal(start->target_q2->parameters()[0], side_by_side->target_q2->parameters()[0]));
  CHECK_FALSE(torch::equal(start->actor->parameters()[0], side_by_side->actor->parameters()[0]));
  CHECK_FALSE(torch::equal(start->log_alpha, side_by_side->log_alpha));

  settings.critic_threads = 3;
  CHECK_THROWS_WITH(sac::SacUpdater(start, settings), Catch::Contains("--critic-threads"));
}

TEST_CASE("SAC's critic values taken ahead of an update count only for the batch they were taken of",
          "[learner][sac]") {
  const int critic_threads = GENERATE(1, 2);
  INFO("critic threads " << critic_threads);
  ModelConfig mc;
  mc.hidden = {32, 32};
  torch::manual_seed(8);
  SacNet plain(bandit_spec(), mc, 0.7), ahead(bandit_spec(), mc, 0.7);
  {
    torch::NoGradGuard no_grad;
    const auto from = plain->parameters();
    for (std::size_t i = 0; i < from.size(); ++i) ahead->parameters()[i].copy_(from[i]);
  }
  sac::SacSettings settings;
  settings.target_entropy = -1.0;
  settings.learning_rate = 3e-3;
  settings.critic_threads = critic_threads;
  sac::SacUpdater reference(plain, settings), taken(ahead, settings);
  at::Generator data = at::detail::createCPUGenerator(21);
  for (int step = 0; step < 12; ++step) {
    const sac::TransitionBatch b = bandit_batch(48, data), other = bandit_batch(48, data);
    // Alternately the values of this batch (used), of another batch (which
    // must not be), and of a copy of this batch's action but not its tensor.
    if (step % 3 == 0) taken.take_critic_values(b);
    if (step % 3 == 1) taken.take_critic_values(other);
    if (step % 3 == 2)
      taken.take_critic_values({b.obs, b.action.clone(), b.reward, b.terminal, b.next_obs, b.discount});
    at::Generator ga = at::detail::createCPUGenerator(900 + step), gb = at::detail::createCPUGenerator(900 + step);
    // The reference's actor step comes first (update), the other's after
    // the next values were taken: the values read only the critics.
    const sac::SacStats r = reference.update(b, ga);
    const sac::SacStats t = taken.update_but_actor_step(b, gb);
    CHECK(t.critic_loss == r.critic_loss);
    CHECK(t.q_mean == r.q_mean);
    CHECK(t.actor_loss == r.actor_loss);
  }
  taken.finish_actor_step();
  const auto pa = plain->named_parameters(), pb = ahead->named_parameters();
  for (const auto& item : pa) {
    INFO(item.key());
    CHECK(torch::equal(item.value(), pb[item.key()]));
  }
}
