#include "seedrl/learner/sac/sac_update.h"

#include <torch/torch.h>

#include "seedrl/learner/sac/sac_losses.h"
#include "seedrl/learner/sac/squashed_gaussian.h"

namespace seedrl::sac {

namespace {

std::unique_ptr<torch::optim::Adam> adam(const std::vector<torch::Tensor>& params, double lr) {
  return std::make_unique<torch::optim::Adam>(params, torch::optim::AdamOptions(lr));
}

SquashedSample sample_policy(SacActor& actor, const torch::Tensor& obs, at::Generator& generator) {
  const GaussianParams p = actor->forward(obs);
  const torch::Tensor noise = torch::randn(p.mean.sizes(), generator, p.mean.options());
  return squashed_sample(p.mean, p.log_std, noise);
}

}  // namespace

SacUpdater::SacUpdater(SacNet net, const SacSettings& settings) : net_(std::move(net)), settings_(settings) {
  actor_ = adam(net_->actor->parameters(), settings_.learning_rate);
  critic_ = adam(net_->critic_parameters(), settings_.learning_rate);
  temperature_ = adam({net_->log_alpha}, settings_.learning_rate);
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
    temperature_->zero_grad();
    loss.backward();
    temperature_->step();
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
  critic_->zero_grad();
  c_loss.backward();
  critic_->step();
  stats.critic_loss = c_loss.item<double>();
  stats.q_mean = q1.mean().item<double>();

  // The actor through the updated critics, which it does not train.
  for (auto& p : net_->critic_parameters()) p.set_requires_grad(false);
  const torch::Tensor a_loss =
      actor_loss(fresh.log_prob, net_->q1->forward(b.obs, fresh.action), net_->q2->forward(b.obs, fresh.action), alpha);
  actor_->zero_grad();
  a_loss.backward();
  actor_->step();
  for (auto& p : net_->critic_parameters()) p.set_requires_grad(true);
  stats.actor_loss = a_loss.item<double>();

  polyak_update(net_->critic_parameters(), net_->target_parameters(), settings_.tau);
  return stats;
}

}  // namespace seedrl::sac
