#include <vector>

#include <torch/torch.h>

#include <fmt/format.h>

#include "seedrl/actor/clip_action.h"
#include "seedrl/env/registry.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/model/agent_net.h"
#include "seedrl/model/policy_distribution.h"
#include "seedrl/model/q_net.h"
#include "seedrl/model/sac_net.h"
#include "seedrl/model/squashed_gaussian.h"
#include "seedrl/model/torso.h"
#include "seedrl/trainer/agent_policy.h"
#include "seedrl/trainer/checkpoint_model.h"
#include "seedrl/trainer/evaluate.h"
#include "seedrl/trainer/memory_budget.h"
#include "seedrl/util/error_text.h"
#include "seedrl/util/rng.h"
#include "seedrl/util/torch_dtype.h"

namespace seedrl {

namespace {

// The run config in a checkpoint is as untrusted as its tensors: whatever
// fails while `f` builds from it is one line naming the file.
template <class F>
auto from_checkpoint(const std::string& checkpoint, const char* what, F&& f) {
  try {
    return f();
  } catch (const CheckpointError&) {
    throw;
  } catch (const std::exception& e) {
    throw CheckpointError("checkpoint " + checkpoint + ": " + what + ": " + error_text(e));
  }
}

// A damaged or crafted config can claim a width (--hidden 64,64 read as
// 64864) whose model takes many GiB to build before its shapes could be
// compared with the file's. So, before anything is built: the parameters the
// config's model would have must be the ones the file holds (its index was
// checked against its own bytes), and every width the model uses must be a
// dim of one of its non-empty tensors.
void check_widths(const std::string& checkpoint, const LoadedCheckpoint& header, const EnvSpec& spec,
                  const TrainConfig& config) {
  const ModelConfig& model = config.model;
  std::int64_t widest = 0;
  double held = 0;  // parameters in the file's model tensors
  for (const auto& [name, shape] : header.model_shapes) {
    double numel = 1;
    for (const std::int64_t d : shape) numel *= static_cast<double>(d);
    if (numel == 0) continue;  // an empty tensor vouches for no width
    held += numel;
    for (const std::int64_t d : shape) widest = std::max(widest, d);
  }
  const double wanted = parameter_count(config, spec);
  if (wanted > held)
    throw CheckpointError(fmt::format(
        "checkpoint {} does not match its own run config: its model would have {:.0f} parameters, the file holds "
        "{:.0f}",
        checkpoint, wanted, held));
  std::vector<std::pair<const char*, int>> used;
  if (resolve_torso(spec.observation, model.torso) == "mlp")
    for (const int h : model.hidden) used.emplace_back("hidden", h);
  if (model.lstm) used.emplace_back("lstm_size", model.lstm_size);
  for (const auto& [what, width] : used)
    if (width > widest)
      throw CheckpointError("checkpoint " + checkpoint + " does not match its own run config: its " + what + " " +
                            std::to_string(width) + " is wider than any of its tensors");
}

torch::Tensor obs_tensor(const EnvSpec& spec) {
  std::vector<std::int64_t> shape{1, 1};
  shape.insert(shape.end(), spec.observation.shape.begin(), spec.observation.shape.end());
  return torch::empty(shape, to_torch_dtype(spec.observation.dtype));
}

// An R2D2 checkpoint acts on its online Q-network: greedily, or else
// epsilon-greedily with the run's evaluation epsilon (--eval-epsilon), the
// previous action and reward fed to the core as in training.
CheckpointPolicy q_policy(const std::string& checkpoint, CheckpointPolicy out, const EnvSpec& spec, std::uint64_t seed,
                          bool greedy) {
  QNet model = from_checkpoint(checkpoint, "its model", [&] { return QNet(spec, out.config.model); });
  load_checkpoint(checkpoint, *model, nullptr);
  model->to(torch::kCPU);
  model->eval();
  struct State {
    QNet model{nullptr};
    CoreState core;
    torch::Tensor obs, prev_action, prev_reward;
    Rng rng;
  };
  auto st = std::make_shared<State>();
  st->model = model;
  st->obs = obs_tensor(spec);
  st->prev_action = torch::full({1, 1}, -1.f);
  st->prev_reward = torch::zeros({1, 1});
  st->rng = Rng(seed);
  const double epsilon = greedy ? 0.0 : out.config.r2d2.eval_epsilon;
  const int actions = spec.action.num_actions;
  const std::size_t obs_bytes = spec.observation.bytes();
  out.policy = [st, epsilon, actions, obs_bytes](const void* obs, bool first, float reward, float* action) {
    c10::InferenceMode guard;
    std::memcpy(st->obs.data_ptr(), obs, obs_bytes);
    if (first) {
      st->core = st->model->initial_state(1);
      st->prev_action.fill_(-1.f);
    }
    st->prev_reward.fill_(first ? 0.f : reward);
    auto first_t = torch::full({1, 1}, first ? 1 : 0, torch::kUInt8);
    QOutput q = st->model->forward(st->obs, first_t, st->prev_action, st->prev_reward, st->core);
    st->core = q.state;
    int a = static_cast<int>(q.q[0][0].argmax().item<std::int64_t>());
    if (epsilon > 0 && st->rng.uniform() < epsilon)
      a = static_cast<int>(st->rng.below(static_cast<std::uint64_t>(actions)));
    action[0] = static_cast<float>(a);
    st->prev_action.fill_(static_cast<float>(a));
  };
  return out;
}

SacNet sac_net(const std::string& checkpoint, const TrainConfig& config, const EnvSpec& spec) {
  SacNet net = from_checkpoint(checkpoint, "its model",
                               [&] { return SacNet(spec, config.model, config.sac.initial_temperature); });
  load_checkpoint(checkpoint, *net, nullptr);
  net->to(torch::kCPU);
  net->eval();
  return net;
}

// A SAC checkpoint acts with its actor's deterministic action, tanh(mean),
// mapped onto the action box: how SAC is evaluated (Haarnoja et al. 2018).
CheckpointPolicy sac_policy(const std::string& checkpoint, CheckpointPolicy out, const EnvSpec& spec) {
  SacActor actor = sac_net(checkpoint, out.config, spec)->actor;
  struct State {
    SacActor actor{nullptr};
    torch::Tensor obs, low, high;
  };
  auto st = std::make_shared<State>();
  st->actor = actor;
  st->obs = obs_tensor(spec).flatten(0, 1);
  st->low = torch::tensor(spec.action.low, torch::kFloat32);
  st->high = torch::tensor(spec.action.high, torch::kFloat32);
  const std::size_t obs_bytes = spec.observation.bytes();
  const int dim = spec.action.dim;
  out.policy = [st, obs_bytes, dim](const void* obs, bool, float, float* action) {
    c10::InferenceMode guard;
    std::memcpy(st->obs.data_ptr(), obs, obs_bytes);
    const torch::Tensor a =
        sac::to_box(sac::squashed_mode(st->actor->forward(st->obs).mean), st->low, st->high).contiguous();
    std::memcpy(action, a.data_ptr<float>(), sizeof(float) * dim);
  };
  return out;
}

}  // namespace

CheckpointPolicy load_checkpoint_policy(const std::string& checkpoint, std::uint64_t seed, bool greedy) {
  CheckpointPolicy out;
  const LoadedCheckpoint header = read_checkpoint_header(checkpoint);
  out.config =
      from_checkpoint(checkpoint, "its run config", [&] { return train_config_from_json(header.config_json); });
  const EnvSpec spec = from_checkpoint(checkpoint, "its environment", [&] {
    return EnvRegistry::builtin().make(out.config.env, out.config.env_options)->spec();
  });
  check_widths(checkpoint, header, spec, out.config);
  if (out.config.algo == "r2d2") return q_policy(checkpoint, std::move(out), spec, seed, greedy);
  if (out.config.algo == "sac") return sac_policy(checkpoint, std::move(out), spec);
  std::shared_ptr<PolicyDistribution> dist =
      from_checkpoint(checkpoint, "its action space", [&] { return make_policy_distribution(spec.action); });
  AgentNet model =
      from_checkpoint(checkpoint, "its model", [&] { return AgentNet(spec, out.config.model, dist->param_size()); });
  load_checkpoint(checkpoint, *model, nullptr);
  // One env, one step at a time: the CPU is the right place, whatever device
  // the checkpoint was trained on (its tensors load onto that device).
  model->to(torch::kCPU);
  model->eval();
  out.policy = agent_play_policy(model, spec, greedy, seed);
  return out;
}

CheckpointModel load_checkpoint_model(const std::string& checkpoint) {
  CheckpointModel out;
  const LoadedCheckpoint header = read_checkpoint_header(checkpoint);
  out.counters = header.counters;
  out.config =
      from_checkpoint(checkpoint, "its run config", [&] { return train_config_from_json(header.config_json); });
  out.spec = from_checkpoint(checkpoint, "its environment", [&] {
    return EnvRegistry::builtin().make(out.config.env, out.config.env_options)->spec();
  });
  check_widths(checkpoint, header, out.spec, out.config);
  if (out.config.algo == "r2d2") {
    QNet model = from_checkpoint(checkpoint, "its model", [&] { return QNet(out.spec, out.config.model); });
    out.module = model.ptr();
  } else if (out.config.algo == "sac") {
    out.module = sac_net(checkpoint, out.config, out.spec).ptr();
    return out;
  } else {
    const int policy_size = from_checkpoint(checkpoint, "its action space",
                                            [&] { return make_policy_distribution(out.spec.action)->param_size(); });
    AgentNet model =
        from_checkpoint(checkpoint, "its model", [&] { return AgentNet(out.spec, out.config.model, policy_size); });
    out.module = model.ptr();
  }
  load_checkpoint(checkpoint, *out.module, nullptr);
  out.module->to(torch::kCPU);
  out.module->eval();
  return out;
}

PlayStats evaluate(const std::string& checkpoint, int episodes, std::uint64_t seed, bool greedy,
                   const std::string& rom_dir) {
  CheckpointPolicy p = load_checkpoint_policy(checkpoint, seed, greedy);
  EnvOptions env_options = p.config.env_options;
  env_options.rom_dir = rom_dir;
  auto env = EnvRegistry::builtin().make(p.config.env, env_options);
  return play_episodes(*env, p.policy, episodes, seed);
}

}  // namespace seedrl
