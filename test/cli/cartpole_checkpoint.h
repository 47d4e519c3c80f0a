// DIR/checkpoint.pt: an untrained CartPole network with its run config, as
// `seedrl train` writes one, made in-process (no training run) for the CLI
// tests that feed a checkpoint to a command.
#pragma once

#include <string>

#include "seedrl/env/registry.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/learner/vtrace_learner.h"
#include "seedrl/model/agent_net.h"
#include "seedrl/model/policy_distribution.h"
#include "seedrl/trainer/train_config.h"

namespace seedrl::test {

inline std::string cartpole_checkpoint(const std::string& dir) {
  TrainConfig config;
  config.env = "cartpole";
  config.logdir = dir;
  const EnvSpec spec = EnvRegistry::builtin().make(config.env, config.env_options)->spec();
  AgentNet model(spec, config.model, make_policy_distribution(spec.action)->param_size());
  auto opt = make_optimizer(config.learner.optimizer, model->parameters());
  save_checkpoint(checkpoint_path(dir), *model, *opt, {}, to_json(config));
  return checkpoint_path(dir);
}

}  // namespace seedrl::test
