#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include <torch/torch.h>

#include "seedrl/env/env_step.h"
#include "seedrl/learner/vtrace_learner.h"
#include "seedrl/model/agent_net.h"
#include "seedrl/model/policy_distribution.h"

using namespace seedrl;

namespace {
EnvSpec box_env() {
  EnvSpec s;
  s.name = "box";
  s.observation = ArraySpec{{3}, DType::kFloat32};
  s.action = ActionSpec::box({-2.f, -1.f}, {2.f, 1.f});
  return s;
}
}  // namespace

TEST_CASE("continuous AgentNet outputs a mean and a state-independent log-std", "[model][agent_net]") {
  const EnvSpec spec = box_env();
  auto dist = make_policy_distribution(spec.action);
  AgentNet net(spec, ModelConfig{}, dist->param_size());
  auto out = net->forward(torch::randn({5, 7, 3}), torch::zeros({5, 7}, torch::kUInt8), {});
  REQUIRE(out.policy.sizes() == std::vector<std::int64_t>{5, 7, 4});
  // Initial std: a quarter of each dimension's box width.
  auto log_std = out.policy.narrow(-1, 2, 2);
  CHECK(log_std.select(-1, 0).allclose(torch::full({5, 7}, std::log(1.0f))));
  CHECK(log_std.select(-1, 1).allclose(torch::full({5, 7}, std::log(0.5f))));
  CHECK(net->named_parameters().contains("log_std"));
  CHECK_THROWS_AS(AgentNet(spec, ModelConfig{}, 3), std::invalid_argument);
}

TEST_CASE("V-trace losses train the Gaussian mean and log-std", "[model][agent_net]") {
  torch::manual_seed(2);
  const EnvSpec spec = box_env();
  auto dist = make_policy_distribution(spec.action);
  AgentNet net(spec, ModelConfig{}, dist->param_size());
  const int L = 6, B = 4;
  UnrollBatch batch;
  batch.obs = torch::randn({L, B, 3});
  batch.flags = torch::zeros({L, B}, torch::kUInt8);
  batch.flags[0].fill_(kFirst);
  batch.rewards = torch::randn({L, B});
  {
    torch::NoGradGuard no_grad;
    batch.policy = net->forward(batch.obs, batch.flags.ne(0), {}).policy.clone();
  }
  batch.actions = dist->sample(batch.policy) * 3;  // some far outside the box: log-probs stay finite
  batch.versions = torch::zeros({B}, torch::kLong);
  VTraceLossConfig config;
  VTraceLosses l = vtrace_losses(net, *dist, batch, config, torch::kCPU);
  REQUIRE(std::isfinite(l.total.item<double>()));
  // On-policy: every importance ratio is 1.
  CHECK(l.mean_rho.item<double>() == Approx(1.0).epsilon(1e-5));
  // Entropy of the initial policy: sum of log-std + dim * log(2 pi e) / 2.
  CHECK(l.entropy.item<double>() == Approx(std::log(1.0) + std::log(0.5) + std::log(2 * M_PI * M_E)).epsilon(1e-5));
  l.total.backward();
  auto params = net->named_parameters();
  CHECK(params["log_std"].grad().abs().sum().item<double>() > 0);
  CHECK(params["policy.weight"].grad().abs().sum().item<double>() > 0);
}
