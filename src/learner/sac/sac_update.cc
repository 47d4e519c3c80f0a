#include "seedrl/learner/sac/sac_update.h"

#include <torch/torch.h>

#include "seedrl/learner/sac/sac_losses.h"
#include "seedrl/model/squashed_gaussian.h"

namespace seedrl::sac {

namespace {

SquashedSample sample_policy(SacActor& actor, const torch::Tensor& obs, at::Generator& generator) {
  const GaussianParams p = actor->forward(obs);
  // Drawn where the generator lives (a CPU one for a learner on a GPU too, so
  // that a seed gives the same noise everywhere), then moved.
  const torch::Tensor noise =
      torch::randn(p.mean.sizes(), generator, p.mean.options().device(generator.device())).to(p.mean.device());
  return squashed_sample(p.mean, p.log_std, noise);
}

}  // namespace

SacUpdater::SacUpdater(SacNet net, const SacSettings& settings) : net_(std::move(net)), settings_(settings) {
  const torch::optim::AdamOptions options(settings_.learning_rate);
  std::vector<torch::optim::OptimizerParamGroup> groups;
  groups.emplace_back(net_->critic_parameters(), std::make_unique<torch::optim::AdamOptions>(options));
  groups.emplace_back(net_->actor->parameters(), std::make_unique<torch::optim::AdamOptions>(options));
  groups.emplace_back(std::vector<torch::Tensor>{net_->log_alpha},
                      std::make_unique<torch::optim::AdamOptions>(options));
  optimizer_ = std::make_unique<torch::optim::Adam>(std::move(groups), options);
}

void SacUpdater::step_group(std::size_t group, const torch::Tensor& loss) {
  // Undefined gradients (not zeros, which Adam would still step on) everywhere,
  // so that only this group's parameters move.
  for (auto& g : optimizer_->param_groups())
    for (auto& p : g.params()) p.mutable_grad() = torch::Tensor();
  loss.backward();
  auto& groups = optimizer_->param_groups();
  for (std::size_t i = 0; i < groups.size(); ++i)
    if (i != group)
      for (auto& p : groups[i].params()) p.mutable_grad() = torch::Tensor();
  optimizer_->step();
}

SacStats SacUpdater::update(const TransitionBatch& b, at::Generator& generator) {
  SacStats stats;
  const torch::Tensor alpha = net_->log_alpha.exp().detach();
  stats.alpha = alpha.item<double>();

  // The actor's fresh samples: for the temperature and the actor's loss.
  SquashedSample fresh = sample_policy(net_->actor, b.obs, generator);
  stats.entropy = -fresh.log_prob.mean().item<double>();
  if (settings_.learn_temperature) {
    const torch::Tensor loss = temperature_loss(net_->log_alpha, fresh.log_prob, settings_.target_entropy);
    step_group(2, loss);
    stats.temperature_loss = loss.item<double>();
  }

  // Critics towards the soft Bellman target.
  torch::Tensor target;
  {
    torch::NoGradGuard no_grad;
    const SquashedSample next = sample_policy(net_->actor, b.next_obs, generator);
    target = critic_target(b.reward, b.terminal, b.discount, net_->target_q1->forward(b.next_obs, next.action),
                           net_->target_q2->forward(b.next_obs, next.action), next.log_prob, alpha);
  }
  const torch::Tensor q1 = net_->q1->forward(b.obs, b.action);
  const torch::Tensor q2 = net_->q2->forward(b.obs, b.action);
  const torch::Tensor c_loss = critic_loss(q1, q2, target);
  step_group(0, c_loss);
  stats.critic_loss = c_loss.item<double>();
  stats.q_mean = q1.mean().item<double>();

  // The actor through the updated critics, which it does not train.
  for (auto& p : net_->critic_parameters()) p.set_requires_grad(false);
  const torch::Tensor a_loss =
      actor_loss(fresh.log_prob, net_->q1->forward(b.obs, fresh.action), net_->q2->forward(b.obs, fresh.action), alpha);
  step_group(1, a_loss);
  for (auto& p : net_->critic_parameters()) p.set_requires_grad(true);
  stats.actor_loss = a_loss.item<double>();

  polyak_update(net_->critic_parameters(), net_->target_parameters(), settings_.tau);
  return stats;
}

}  // namespace seedrl::sac
