// Model options for continuous control: a Tanh MLP torso, and a value head
// with a torso of its own.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>

#include <torch/torch.h>

#include "seedrl/model/agent_net.h"
#include "seedrl/model/torso.h"

using namespace seedrl;

namespace {
EnvSpec vector_env() {
  EnvSpec s;
  s.name = "vec";
  s.observation = ArraySpec{{3}, DType::kFloat32};
  s.action = ActionSpec::box({-1.f}, {1.f});
  return s;
}
}  // namespace

TEST_CASE("activation tanh (--activation) makes the MLP torso tanh(Wx + b) per layer", "[model][torso]") {
  torch::manual_seed(5);
  ModelConfig config;
  config.hidden = {4, 2};
  config.activation = "tanh";
  Torso torso = make_torso(vector_env().observation, config);
  const auto x = torch::randn({6, 3});
  const auto y = torso.module.forward(x);
  // Double-precision reference from the module's own weights.
  auto params = torso.module.ptr()->parameters();  // w1, b1, w2, b2
  REQUIRE(params.size() == 4);
  const auto* w1 = params[0].data_ptr<float>();
  const auto* b1 = params[1].data_ptr<float>();
  const auto* w2 = params[2].data_ptr<float>();
  const auto* b2 = params[3].data_ptr<float>();
  for (int n = 0; n < 6; ++n) {
    double h[4];
    for (int i = 0; i < 4; ++i) {
      double s = b1[i];
      for (int k = 0; k < 3; ++k) s += static_cast<double>(w1[i * 3 + k]) * x[n][k].item<float>();
      h[i] = std::tanh(s);
    }
    for (int j = 0; j < 2; ++j) {
      double s = b2[j];
      for (int i = 0; i < 4; ++i) s += static_cast<double>(w2[j * 4 + i]) * h[i];
      CHECK(y[n][j].item<float>() == Approx(std::tanh(s)).epsilon(1e-5));
    }
  }
  config.activation = "sigmoid";
  CHECK_THROWS_WITH(make_torso(vector_env().observation, config), Catch::Contains("--activation"));
}

TEST_CASE(
    "separate value net (--separate-value-net): the value loss reaches only the value torso, the policy only its own",
    "[model][agent_net]") {
  torch::manual_seed(6);
  ModelConfig config;
  config.hidden = {8};
  config.separate_value_net = true;
  const EnvSpec spec = vector_env();
  AgentNet net(spec, config, 2);
  auto out = net->forward(torch::randn({4, 5, 3}), torch::zeros({4, 5}, torch::kUInt8), {});
  REQUIRE(out.value.sizes() == std::vector<std::int64_t>{4, 5});

  auto grads_of = [&](const torch::Tensor& loss) {
    net->zero_grad();
    loss.backward(/*gradient=*/{}, /*retain_graph=*/true);
    std::map<std::string, double> norms;
    for (const auto& p : net->named_parameters())
      norms[p.key()] = p.value().grad().defined() ? p.value().grad().abs().sum().item<double>() : 0.0;
    return norms;
  };
  auto value_grads = grads_of(out.value.pow(2).sum());
  auto policy_grads = grads_of(out.policy.narrow(-1, 0, 1).pow(2).sum());
  int value_torso_params = 0;
  for (const auto& [name, g] : value_grads) {
    const bool in_value = name.rfind("value_torso.", 0) == 0 || name.rfind("value.", 0) == 0;
    value_torso_params += name.rfind("value_torso.", 0) == 0;
    INFO(name);
    if (name == "log_std") continue;
    if (in_value) {
      CHECK(g > 0);
      CHECK(policy_grads.at(name) == 0);
    } else {
      CHECK(g == 0);
      CHECK(policy_grads.at(name) > 0);
    }
  }
  CHECK(value_torso_params == 2);

  config.lstm = true;
  CHECK_THROWS_WITH(AgentNet(spec, config, 2), Catch::Contains("--separate-value-net"));
}
