#include "seedrl/learner/sac/transitions.h"

#include <algorithm>
#include <stdexcept>

#include <torch/torch.h>

#include "seedrl/env/env_step.h"
#include "seedrl/learner/reward_shaping.h"
#include "seedrl/model/squashed_gaussian.h"

namespace seedrl::sac {

TransitionBatch make_transitions(const UnrollBatch& seq, int n_step, double discount, const std::vector<float>& low,
                                 const std::vector<float>& high, std::int64_t starts, double reward_clip,
                                 double reward_scale) {
  if (n_step < 1) throw std::invalid_argument("--n-step: must be at least 1");
  const std::int64_t L = seq.rewards.size(0), B = seq.rewards.size(1);
  const torch::Tensor flags = seq.flags.to(torch::kCPU).contiguous();
  const torch::Tensor rewards = seq.rewards.to(torch::kCPU, torch::kFloat32).contiguous();
  const std::uint8_t* f = flags.data_ptr<std::uint8_t>();
  const float* r = rewards.data_ptr<float>();
  std::vector<std::int64_t> from, to;  // flat [t * B + b] entries
  std::vector<float> reward, terminal, gamma_k;
  for (std::int64_t b = 0; b < B; ++b) {
    for (std::int64_t t = 0; t + 1 < L && (starts < 0 || t < starts); ++t) {
      if (is_last(f[t * B + b])) continue;
      double sum = 0, g = 1;
      std::int64_t k = 0;
      bool ended = false;
      while (k < n_step && t + k + 1 < L && !ended) {
        ++k;
        const std::int64_t e = (t + k) * B + b;
        sum += g * shape_reward(r[e], reward_clip, reward_scale);
        g *= discount;
        ended = is_last(f[e]);
      }
      const std::int64_t e = (t + k) * B + b;
      from.push_back(t * B + b);
      to.push_back(e);
      reward.push_back(static_cast<float>(sum));
      terminal.push_back((f[e] & kTerminated) ? 1.f : 0.f);
      gamma_k.push_back(static_cast<float>(g));
    }
  }
  const auto index = [](std::vector<std::int64_t>& v) {
    return torch::from_blob(v.data(), {static_cast<std::int64_t>(v.size())}, torch::kInt64).clone();
  };
  const auto floats = [](std::vector<float>& v) {
    return torch::from_blob(v.data(), {static_cast<std::int64_t>(v.size())}, torch::kFloat32).clone();
  };
  const torch::Tensor obs = seq.obs.flatten(0, 1);
  const torch::Tensor actions = seq.actions.flatten(0, 1);
  const torch::Tensor from_t = index(from).to(obs.device()), to_t = index(to).to(obs.device());
  const auto box = [&](const std::vector<float>& v) { return torch::tensor(v, torch::kFloat32).to(actions.device()); };
  TransitionBatch out;
  out.obs = obs.index_select(0, from_t);
  out.next_obs = obs.index_select(0, to_t);
  out.action = from_box(actions.index_select(0, from_t).to(torch::kFloat32), box(low), box(high));
  out.reward = floats(reward).to(obs.device());
  out.terminal = floats(terminal).to(obs.device());
  out.discount = floats(gamma_k).to(obs.device());
  return out;
}

}  // namespace seedrl::sac
