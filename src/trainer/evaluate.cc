#include <cmath>
#include <vector>

#include <torch/torch.h>

#include "seedrl/env/registry.h"
#include "seedrl/inference/env_step.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/model/agent_net.h"
#include "seedrl/model/policy_distribution.h"
#include "seedrl/trainer/trainer.h"

namespace seedrl {

EvalResult evaluate(const std::string& checkpoint, int episodes, std::uint64_t seed, bool greedy) {
  const TrainConfig config = train_config_from_json(read_checkpoint_header(checkpoint).config_json);
  auto env = EnvRegistry::builtin().make(config.env, config.env_options);
  const EnvSpec& spec = env->spec();
  auto dist = make_policy_distribution(spec.action);
  AgentNet model(spec, config.model, dist->param_size());
  load_checkpoint(checkpoint, *model, nullptr);
  model->eval();
  torch::manual_seed(seed);
  c10::InferenceMode guard;

  std::vector<std::int64_t> shape{1, 1};
  shape.insert(shape.end(), spec.observation.shape.begin(), spec.observation.shape.end());
  auto obs = torch::empty(shape, spec.observation.dtype == DType::kUInt8 ? torch::kUInt8 : torch::kFloat32);
  std::vector<double> returns;
  double total_length = 0;
  for (int e = 0; e < episodes; ++e) {
    env->reset(e == 0 ? std::optional<std::uint64_t>(seed) : std::nullopt, obs.data_ptr());
    CoreState state = model->initial_state(1);
    auto first = torch::ones({1, 1}, torch::kUInt8);
    double ret = 0;
    for (;;) {
      NetOutput out = model->forward(obs, first, state);
      state = out.state;
      first.zero_();
      auto params = out.policy[0];
      auto action = (greedy ? dist->mode(params) : dist->sample(params)).contiguous();
      const float* a = action.data_ptr<float>();
      StepResult r = env->step(Action{static_cast<std::int32_t>(a[0]), a}, obs.data_ptr());
      ret += r.reward;
      total_length += 1;
      if (r.terminated || r.truncated) break;
    }
    returns.push_back(ret);
  }
  EvalResult res;
  res.episodes = episodes;
  for (double r : returns) res.return_mean += r / episodes;
  for (double r : returns) res.return_std += (r - res.return_mean) * (r - res.return_mean) / episodes;
  res.return_std = std::sqrt(res.return_std);
  res.length_mean = total_length / episodes;
  return res;
}

}  // namespace seedrl
