#include "seedrl/learner/sac/sac_update.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include <torch/torch.h>

#include "seedrl/learner/sac/actor_gradients.h"
#include "seedrl/learner/sac/sac_losses.h"

namespace seedrl::sac {

namespace {

// Drawn where the generator lives (a CPU one for a learner on a GPU too, so
// that a seed gives the same noise everywhere), then moved.
torch::Tensor standard_normal_like(const torch::Tensor& like, at::Generator& generator) {
  return torch::randn(like.sizes(), generator, like.options().device(generator.device())).to(like.device());
}

torch::Tensor actor_input(const torch::Tensor& obs) { return obs.flatten(1).to(torch::kFloat32); }

// A critic's input rows [flattened obs, action], written into `rows` (made
// once per batch size).
void critic_input(torch::Tensor& rows, const torch::Tensor& obs, const torch::Tensor& action) {
  const torch::Tensor o = obs.flatten(1);
  const std::int64_t n = o.size(0), width = o.size(1) + action.size(1);
  if (!rows.defined() || rows.size(0) != n || rows.size(1) != width)
    rows = torch::empty({n, width}, o.options().dtype(torch::kFloat32));
  rows.narrow(1, 0, o.size(1)).copy_(o);
  rows.narrow(1, o.size(1), action.size(1)).copy_(action);
}

OptimizerConfig adam_config(double eps) {
  OptimizerConfig c;
  c.name = "adam";
  c.adam_eps = eps;
  c.max_grad_norm = 0;  // SAC clips nothing
  return c;
}

}  // namespace

SacUpdater::SacUpdater(SacNet net, const SacSettings& settings) : net_(std::move(net)), settings_(settings) {
  if (settings_.critic_threads != 1 && settings_.critic_threads != 2)
    throw std::invalid_argument("--critic-threads: " + std::to_string(settings_.critic_threads) + " is not 1 or 2");
  const OptimizerConfig config = adam_config(settings_.adam_eps);
  const torch::optim::AdamOptions options = torch::optim::AdamOptions(settings_.learning_rate)
                                                .betas({config.adam_beta1, config.adam_beta2})
                                                .eps(config.adam_eps);
  std::vector<torch::optim::OptimizerParamGroup> groups;
  groups.emplace_back(net_->critic_parameters(), std::make_unique<torch::optim::AdamOptions>(options));
  groups.emplace_back(net_->actor->parameters(), std::make_unique<torch::optim::AdamOptions>(options));
  groups.emplace_back(std::vector<torch::Tensor>{net_->log_alpha},
                      std::make_unique<torch::optim::AdamOptions>(options));
  optimizer_ = std::make_unique<torch::optim::Adam>(std::move(groups), options);

  const bool bf16 = settings_.bf16_matmuls;
  lanes_[0].critic = net_->q1;
  lanes_[0].target = net_->target_q1;
  lanes_[1].critic = net_->q2;
  lanes_[1].target = net_->target_q2;
  for (Lane& lane : lanes_) {
    lane.params = lane.critic->parameters();
    lane.target_params = lane.target->parameters();
    lane.adam = std::make_unique<DeviceOptimizerStep>(*optimizer_, config, lane.params);
    lane.pass = std::make_unique<MlpPass>(lane.params, lane.critic->tanh_activation(), bf16);
    lane.target_pass = std::make_unique<MlpPass>(lane.target_params, lane.target->tanh_activation(), bf16);
  }
  actor_adam_ = std::make_unique<DeviceOptimizerStep>(*optimizer_, config, net_->actor->parameters());
  actor_pass_ = std::make_unique<MlpPass>(net_->actor->parameters(), net_->actor->tanh_activation(), bf16);
  next_actor_pass_ = std::make_unique<MlpPass>(net_->actor->parameters(), net_->actor->tanh_activation(), bf16);
  temperature_adam_ =
      std::make_unique<DeviceOptimizerStep>(*optimizer_, config, std::vector<torch::Tensor>{net_->log_alpha});
  job_ = [this](int j) { run_lane(j); };
  if (settings_.critic_threads == 2) threads_ = std::make_unique<ReplicaThreads>(2);
}

SacUpdater::~SacUpdater() = default;

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
  if (phase_ == Phase::kActorStep) {  // no batch: the last update's actor step beside the caller's work
    if (j == 1) {
      actor_step();
      if (*after_actor_step_) (*after_actor_step_)();
    } else if (*meanwhile_) {
      (*meanwhile_)();
    }
    return;
  }
  const TransitionBatch& b = *batch_;
  Lane& lane = lanes_[j];
  switch (phase_) {
    case Phase::kActors:
      if (j == 0) {
        actor_out_ = actor_pass_->forward(actor_input(b.obs));
        fresh_ = squashed_sample_of(actor_out_, fresh_noise_);
      } else {
        next_ = squashed_sample_of(next_actor_pass_->forward(actor_input(b.next_obs)), next_noise_);
      }
      break;
    case Phase::kTargetCritics:
      critic_input(lane.target_input, b.next_obs, next_.action);
      lane.next_q = lane.target_pass->forward(lane.target_input).squeeze(-1);
      break;
    case Phase::kCriticLosses: {
      if (!values_taken_) critic_value(lane, b);
      const torch::Tensor& q = lane.q;
      torch::NoGradGuard no_grad;
      lane.half_loss = critic_half_loss(q, target_);
      lane.q_mean = q.mean();
      lane.pass->backward(critic_half_loss_grad(q, target_).unsqueeze(1), true);
      lane.adam->step();
      // The critic is final for this update; the actor's step does not read the targets.
      polyak_update(lane.params, lane.target_params, settings_.tau);
      break;
    }
    case Phase::kActorCritics:
      // The actor's backward pass is taken in two parts: this critic's, to
      // the fresh action, on its lane; the rest from there, into the actor.
      critic_input(lane.input, b.obs, fresh_.action);
      lane.fresh_q = lane.pass->forward(lane.input).squeeze(-1);
      break;
    case Phase::kActionGradients:
      lane.action_grad = lane.pass->backward(lane.fresh_q_grad.unsqueeze(1), false,
                                             lane.input.size(1) - fresh_.action.size(1), fresh_.action.size(1));
      break;
    case Phase::kActorStep:
      break;
  }
}

void SacUpdater::critic_value(Lane& lane, const TransitionBatch& batch) {
  critic_input(lane.input, batch.obs, batch.action);
  lane.q = lane.pass->forward(lane.input).squeeze(-1);
}

void SacUpdater::take_critic_values(const TransitionBatch& batch) {
  for (Lane& lane : lanes_) critic_value(lane, batch);
  valued_obs_ = batch.obs;
  valued_action_ = batch.action;
}

void SacUpdater::actor_step() {
  actor_pass_->backward(squashed_sample_grad(actor_out_, fresh_noise_, action_grad_, log_prob_weight_), true);
  actor_adam_->step();
  actor_step_pending_ = false;
  actor_out_ = fresh_noise_ = action_grad_ = torch::Tensor();
}

void SacUpdater::finish_actor_step(const std::function<void()>& after, const std::function<void()>& meanwhile) {
  if (actor_step_pending_ && threads_) {
    after_actor_step_ = &after;
    meanwhile_ = &meanwhile;
    run_phase(Phase::kActorStep);
    after_actor_step_ = meanwhile_ = nullptr;
    return;
  }
  if (actor_step_pending_) {
    actor_step();
    if (after) after();
  }
  if (meanwhile) meanwhile();
}

void SacUpdater::clear_gradients() {
  // Undefined gradients (not zeros), so that each part's backward pass makes
  // its own and a step reads only what its loss wrote.
  for (auto& g : optimizer_->param_groups())
    for (auto& p : g.params()) p.mutable_grad() = torch::Tensor();
}

SacStats SacUpdater::update(const TransitionBatch& b, at::Generator& generator) {
  const SacStats stats = update_but_actor_step(b, generator);
  finish_actor_step();
  return stats;
}

SacStats SacUpdater::update_but_actor_step(const TransitionBatch& b, at::Generator& generator) {
  finish_actor_step();  // the last update's, if it left one
  SacStats stats;
  const torch::Tensor alpha = net_->log_alpha.exp().detach();
  stats.alpha = alpha.item<double>();
  // Both samples' noise first, in a fixed order: the lanes draw nothing.
  fresh_noise_ = standard_normal_like(b.action, generator);
  next_noise_ = standard_normal_like(b.action, generator);
  batch_ = &b;
  // Values taken ahead count only for the tensors they were taken of.
  values_taken_ = valued_obs_.defined() && valued_obs_.is_same(b.obs) && valued_action_.is_same(b.action);
  valued_obs_ = valued_action_ = torch::Tensor();
  // The steps' counts and state, here on one thread: the lanes' steps then
  // touch only their own critic's entries of the optimizer's state.
  for (Lane& lane : lanes_) lane.adam->prepare(settings_.learning_rate);
  actor_adam_->prepare(settings_.learning_rate);
  if (settings_.learn_temperature) temperature_adam_->prepare(settings_.learning_rate);
  clear_gradients();

  // The actor's fresh samples (for the temperature and the actor's loss) and
  // its next actions (for the critics' target).
  run_phase(Phase::kActors);
  const double mean_log_prob = fresh_.log_prob.mean().item<double>();
  stats.entropy = -mean_log_prob;
  if (settings_.learn_temperature) {
    const torch::Tensor grad = temperature_loss_grad(net_->log_alpha, mean_log_prob, settings_.target_entropy);
    stats.temperature_loss = -std::log(stats.alpha) * (mean_log_prob + settings_.target_entropy);
    net_->log_alpha.mutable_grad() = grad;
    temperature_adam_->step();
  }

  // Critics towards the soft Bellman target, each stepped and its target
  // copy moved on its lane.
  run_phase(Phase::kTargetCritics);
  target_ = critic_target(b.reward, b.terminal, b.discount, lanes_[0].next_q, lanes_[1].next_q, next_.log_prob, alpha);
  run_phase(Phase::kCriticLosses);
  stats.critic_loss = lanes_[0].half_loss.item<double>() + lanes_[1].half_loss.item<double>();
  stats.q_mean = lanes_[0].q_mean.item<double>();

  // The actor through the updated critics, which it does not train: the
  // loss's gradient to each critic's value, then (on the critic's lane) to
  // the fresh action, then (here) through the action and the log-probability
  // into the actor.
  {
    run_phase(Phase::kActorCritics);
    const ActorLossGrads a_loss = actor_loss_grads(fresh_.log_prob, lanes_[0].fresh_q, lanes_[1].fresh_q, stats.alpha);
    lanes_[0].fresh_q_grad = a_loss.q1_grad;
    lanes_[1].fresh_q_grad = a_loss.q2_grad;
    run_phase(Phase::kActionGradients);
    action_grad_ = lanes_[0].action_grad + lanes_[1].action_grad;
    log_prob_weight_ = stats.alpha / static_cast<double>(fresh_.log_prob.numel());
    actor_step_pending_ = true;
    stats.actor_loss = a_loss.loss.item<double>();
  }

  // Nothing of this update outlives it but what the actor's step reads.
  batch_ = nullptr;
  fresh_ = {};
  next_ = {};
  next_noise_ = target_ = torch::Tensor();
  for (Lane& lane : lanes_)
    lane.next_q = lane.q = lane.q_mean = lane.half_loss = lane.fresh_q = lane.fresh_q_grad = lane.action_grad =
        torch::Tensor();
  values_taken_ = false;
  return stats;
}

}  // namespace seedrl::sac
