#include "seedrl/learner/sac/sac_update.h"

#include <stdexcept>
#include <string>

#include <torch/torch.h>

#include "seedrl/learner/sac/sac_losses.h"

namespace seedrl::sac {

namespace {

// Drawn where the generator lives (a CPU one for a learner on a GPU too, so
// that a seed gives the same noise everywhere), then moved.
torch::Tensor standard_normal_like(const torch::Tensor& like, at::Generator& generator) {
  return torch::randn(like.sizes(), generator, like.options().device(generator.device())).to(like.device());
}

SquashedSample sample_policy(SacActor& actor, const torch::Tensor& obs, const torch::Tensor& noise) {
  const GaussianParams p = actor->forward(obs);
  return squashed_sample(p.mean, p.log_std, noise);
}

// The critics take no gradient from the actor's loss; restored on every way out.
class FrozenParameters {
 public:
  explicit FrozenParameters(const std::vector<torch::Tensor>& params) : params_(params) {
    for (const auto& p : params_) p.set_requires_grad(false);
  }
  ~FrozenParameters() {
    for (const auto& p : params_) p.set_requires_grad(true);
  }
  FrozenParameters(const FrozenParameters&) = delete;
  FrozenParameters& operator=(const FrozenParameters&) = delete;

 private:
  const std::vector<torch::Tensor>& params_;
};

}  // namespace

SacUpdater::SacUpdater(SacNet net, const SacSettings& settings) : net_(std::move(net)), settings_(settings) {
  if (settings_.critic_threads != 1 && settings_.critic_threads != 2)
    throw std::invalid_argument("--critic-threads: " + std::to_string(settings_.critic_threads) + " is not 1 or 2");
  const torch::optim::AdamOptions options(settings_.learning_rate);
  std::vector<torch::optim::OptimizerParamGroup> groups;
  groups.emplace_back(net_->critic_parameters(), std::make_unique<torch::optim::AdamOptions>(options));
  groups.emplace_back(net_->actor->parameters(), std::make_unique<torch::optim::AdamOptions>(options));
  groups.emplace_back(std::vector<torch::Tensor>{net_->log_alpha},
                      std::make_unique<torch::optim::AdamOptions>(options));
  optimizer_ = std::make_unique<torch::optim::Adam>(std::move(groups), options);

  lanes_[0].critic = net_->q1;
  lanes_[0].target = net_->target_q1;
  lanes_[1].critic = net_->q2;
  lanes_[1].target = net_->target_q2;
  for (Lane& lane : lanes_) {
    lane.params = lane.critic->parameters();
    lane.target_params = lane.target->parameters();
  }
  critic_params_ = net_->critic_parameters();
  job_ = [this](int j) { run_lane(j); };
  if (settings_.critic_threads == 2) threads_ = std::make_unique<ReplicaThreads>(2);
}

void SacUpdater::run_phase(Phase phase) {
  phase_ = phase;
  if (threads_) {
    threads_->run(job_);
  } else {
    run_lane(0);
    run_lane(1);
  }
}

void SacUpdater::run_lane(int j) {
  const TransitionBatch& b = *batch_;
  Lane& lane = lanes_[j];
  switch (phase_) {
    case Phase::kActors:
      if (j == 0) {
        fresh_ = sample_policy(net_->actor, b.obs, fresh_noise_);
      } else {
        torch::NoGradGuard no_grad;
        next_ = sample_policy(net_->actor, b.next_obs, next_noise_);
      }
      break;
    case Phase::kTargetCritics: {
      torch::NoGradGuard no_grad;
      lane.next_q = lane.target->forward(b.next_obs, next_.action);
      break;
    }
    case Phase::kCriticLosses:
      lane.q = lane.critic->forward(b.obs, b.action);
      lane.half_loss = critic_half_loss(lane.q, target_);
      lane.half_loss.backward();
      break;
    case Phase::kActorCritics:
      lane.fresh_q = lane.critic->forward(b.obs, fresh_.action);
      // The critics are final for this update; the actor's step does not read the targets.
      polyak_update(lane.params, lane.target_params, settings_.tau);
      break;
  }
}

void SacUpdater::clear_gradients() {
  // Undefined gradients (not zeros, which Adam would still step on), so that
  // a step moves only the parameters its loss reached.
  for (auto& g : optimizer_->param_groups())
    for (auto& p : g.params()) p.mutable_grad() = torch::Tensor();
}

void SacUpdater::step_group(std::size_t group) {
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
  // Both samples' noise first, in a fixed order: the lanes draw nothing.
  fresh_noise_ = standard_normal_like(b.action, generator);
  next_noise_ = standard_normal_like(b.action, generator);
  batch_ = &b;

  // The actor's fresh samples (for the temperature and the actor's loss) and
  // its next actions (for the critics' target).
  run_phase(Phase::kActors);
  stats.entropy = -fresh_.log_prob.mean().item<double>();
  if (settings_.learn_temperature) {
    const torch::Tensor loss = temperature_loss(net_->log_alpha, fresh_.log_prob, settings_.target_entropy);
    clear_gradients();
    loss.backward();
    step_group(2);
    stats.temperature_loss = loss.item<double>();
  }

  // Critics towards the soft Bellman target.
  run_phase(Phase::kTargetCritics);
  target_ = critic_target(b.reward, b.terminal, b.discount, lanes_[0].next_q, lanes_[1].next_q, next_.log_prob, alpha);
  clear_gradients();
  run_phase(Phase::kCriticLosses);
  step_group(0);
  stats.critic_loss = lanes_[0].half_loss.item<double>() + lanes_[1].half_loss.item<double>();
  stats.q_mean = lanes_[0].q.mean().item<double>();

  // The actor through the updated critics, which it does not train.
  {
    const FrozenParameters frozen(critic_params_);
    run_phase(Phase::kActorCritics);
    const torch::Tensor a_loss = actor_loss(fresh_.log_prob, lanes_[0].fresh_q, lanes_[1].fresh_q, alpha);
    clear_gradients();
    a_loss.backward();
    step_group(1);
    stats.actor_loss = a_loss.item<double>();
  }

  // Nothing of this update outlives it (its graphs included).
  batch_ = nullptr;
  fresh_ = {};
  next_ = {};
  fresh_noise_ = next_noise_ = target_ = torch::Tensor();
  for (Lane& lane : lanes_) lane.next_q = lane.q = lane.half_loss = lane.fresh_q = torch::Tensor();
  return stats;
}

}  // namespace seedrl::sac
