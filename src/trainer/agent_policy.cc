#include "seedrl/trainer/agent_policy.h"

#include <cstring>
#include <memory>
#include <vector>

#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>

#include "seedrl/actor/clip_action.h"
#include "seedrl/model/policy_distribution.h"
#include "seedrl/util/torch_dtype.h"

namespace seedrl {

PlayPolicy agent_play_policy(AgentNet model, const EnvSpec& spec, bool greedy, std::uint64_t seed) {
  std::shared_ptr<PolicyDistribution> dist = make_policy_distribution(spec.action);
  struct State {
    AgentNet model{nullptr};
    CoreState core;
    torch::Tensor obs;
    torch::Tensor prev_action;  // [1, 1] float, -1 at an episode start (--prev-action-input)
    at::Generator generator;
  };
  auto st = std::make_shared<State>();
  st->model = std::move(model);
  st->generator = at::make_generator<at::CPUGeneratorImpl>(seed);
  std::vector<std::int64_t> shape{1, 1};
  shape.insert(shape.end(), spec.observation.shape.begin(), spec.observation.shape.end());
  st->obs = torch::empty(shape, to_torch_dtype(spec.observation.dtype));
  if (st->model->takes_prev_action()) st->prev_action = torch::full({1, 1}, -1.f);
  const std::size_t obs_bytes = spec.observation.bytes();
  const int width = spec.action.width();
  const ActionSpec action_spec = spec.action;
  return [st, dist, greedy, obs_bytes, width, action_spec](const void* obs, bool first, float, float* action) {
    c10::InferenceMode guard;
    std::memcpy(st->obs.data_ptr(), obs, obs_bytes);
    if (first) st->core = st->model->initial_state(1);
    if (first && st->prev_action.defined()) st->prev_action.fill_(-1.f);
    auto first_t = torch::full({1, 1}, first ? 1 : 0, torch::kUInt8);
    NetOutput net = st->model->forward(st->obs, first_t, st->core, st->prev_action);
    st->core = net.state;
    auto params = net.policy[0];
    auto a = (greedy ? dist->mode(params) : dist->sample(params, st->generator)).contiguous();
    std::memcpy(action, a.data_ptr<float>(), sizeof(float) * width);
    if (st->prev_action.defined()) st->prev_action.fill_(action[0]);
    if (!action_spec.is_discrete()) clip_to_box(action_spec, action);  // as the actors do
  };
}

}  // namespace seedrl
