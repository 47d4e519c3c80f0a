#include <vector>

#include <torch/torch.h>

#include "seedrl/actor/clip_action.h"
#include "seedrl/env/registry.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/model/agent_net.h"
#include "seedrl/model/policy_distribution.h"
#include "seedrl/trainer/trainer.h"

namespace seedrl {

CheckpointPolicy load_checkpoint_policy(const std::string& checkpoint, std::uint64_t seed, bool greedy) {
  CheckpointPolicy out;
  out.config = train_config_from_json(read_checkpoint_header(checkpoint).config_json);
  const EnvSpec spec = EnvRegistry::builtin().make(out.config.env, out.config.env_options)->spec();
  std::shared_ptr<PolicyDistribution> dist = make_policy_distribution(spec.action);
  AgentNet model(spec, out.config.model, dist->param_size());
  load_checkpoint(checkpoint, *model, nullptr);
  // One env, one step at a time: the CPU is the right place, whatever device
  // the checkpoint was trained on (its tensors load onto that device).
  model->to(torch::kCPU);
  model->eval();
  torch::manual_seed(seed);

  struct State {
    AgentNet model{nullptr};
    CoreState core;
    torch::Tensor obs;
  };
  auto st = std::make_shared<State>();
  st->model = model;
  std::vector<std::int64_t> shape{1, 1};
  shape.insert(shape.end(), spec.observation.shape.begin(), spec.observation.shape.end());
  st->obs = torch::empty(shape, spec.observation.dtype == DType::kUInt8 ? torch::kUInt8 : torch::kFloat32);
  const std::size_t obs_bytes = spec.observation.bytes();
  const int width = spec.action.width();
  const ActionSpec action_spec = spec.action;
  out.policy = [st, dist, greedy, obs_bytes, width, action_spec](const void* obs, bool first, float* action) {
    c10::InferenceMode guard;
    std::memcpy(st->obs.data_ptr(), obs, obs_bytes);
    if (first) st->core = st->model->initial_state(1);
    auto first_t = torch::full({1, 1}, first ? 1 : 0, torch::kUInt8);
    NetOutput net = st->model->forward(st->obs, first_t, st->core);
    st->core = net.state;
    auto params = net.policy[0];
    auto a = (greedy ? dist->mode(params) : dist->sample(params)).contiguous();
    std::memcpy(action, a.data_ptr<float>(), sizeof(float) * width);
    if (!action_spec.is_discrete()) clip_to_box(action_spec, action);  // as the actors do
  };
  return out;
}

PlayStats evaluate(const std::string& checkpoint, int episodes, std::uint64_t seed, bool greedy) {
  CheckpointPolicy p = load_checkpoint_policy(checkpoint, seed, greedy);
  auto env = EnvRegistry::builtin().make(p.config.env, p.config.env_options);
  return play_episodes(*env, p.policy, episodes, seed);
}

}  // namespace seedrl
