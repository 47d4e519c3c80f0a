#include "seedrl/model/sac_net.h"

#include <cmath>
#include <stdexcept>

#include <torch/torch.h>

#include "seedrl/model/torso.h"

namespace seedrl {

namespace {

void check_spec(const EnvSpec& env) {
  if (env.action.is_discrete())
    throw std::invalid_argument("--algo sac: " + env.name + " has discrete actions (" + env.action.to_string() +
                                "); SAC needs a continuous action box (use --algo vtrace or r2d2)");
  if (env.observation.shape.size() > 1)
    throw std::invalid_argument("--model: SAC takes vector observations; " + env.name + " gives " +
                                env.observation.to_string());
}

// The modules compute in float32; --precision bf16 reaches only the
// learner's passes (learner/sac/sac_update.h).
ModelConfig mlp_of(const ModelConfig& config) {
  ModelConfig mlp = config;
  mlp.torso = "mlp";
  mlp.precision = "fp32";
  return mlp;
}

}  // namespace

SacActorImpl::SacActorImpl(const EnvSpec& env, const ModelConfig& config)
    : dim_(env.action.dim), tanh_(config.activation == "tanh") {
  Torso t = make_torso(env.observation, mlp_of(config));
  torso_ = t.module;
  register_module("torso", torso_.ptr());
  head_ = register_module("head", torch::nn::Linear(t.features, 2 * dim_));
}

GaussianParams SacActorImpl::forward(const torch::Tensor& obs) {
  const torch::Tensor out = head_->forward(torso_.forward(obs.to(torch::kFloat32)));
  return {out.narrow(-1, 0, dim_), out.narrow(-1, dim_, dim_)};
}

SacCriticImpl::SacCriticImpl(const EnvSpec& env, const ModelConfig& config) : tanh_(config.activation == "tanh") {
  ArraySpec input;
  input.shape = {static_cast<std::int64_t>(env.observation.numel()) + env.action.dim};
  Torso t = make_torso(input, mlp_of(config));
  torso_ = t.module;
  register_module("torso", torso_.ptr());
  head_ = register_module("head", torch::nn::Linear(t.features, 1));
}

torch::Tensor SacCriticImpl::forward(const torch::Tensor& obs, const torch::Tensor& action) {
  const torch::Tensor x = torch::cat({obs.to(torch::kFloat32).flatten(1), action.to(torch::kFloat32)}, 1);
  return head_->forward(torso_.forward(x)).squeeze(-1);
}

SacNetImpl::SacNetImpl(const EnvSpec& env, const ModelConfig& config, double initial_temperature) {
  check_spec(env);
  if (!(initial_temperature > 0) || !std::isfinite(initial_temperature))
    throw std::invalid_argument("--init-temperature: must be a positive number");
  actor = register_module("actor", SacActor(env, config));
  q1 = register_module("q1", SacCritic(env, config));
  q2 = register_module("q2", SacCritic(env, config));
  target_q1 = register_module("target_q1", SacCritic(env, config));
  target_q2 = register_module("target_q2", SacCritic(env, config));
  log_alpha = register_parameter("log_alpha", torch::tensor(std::log(initial_temperature)));
  torch::NoGradGuard no_grad;
  const auto online = critic_parameters();
  const auto target = target_parameters();
  for (std::size_t i = 0; i < online.size(); ++i) target[i].copy_(online[i]);
  for (auto& p : target) p.set_requires_grad(false);
}

std::vector<torch::Tensor> SacNetImpl::critic_parameters() {
  std::vector<torch::Tensor> out = q1->parameters();
  for (auto& p : q2->parameters()) out.push_back(p);
  return out;
}

std::vector<torch::Tensor> SacNetImpl::target_parameters() {
  std::vector<torch::Tensor> out = target_q1->parameters();
  for (auto& p : target_q2->parameters()) out.push_back(p);
  return out;
}

}  // namespace seedrl
