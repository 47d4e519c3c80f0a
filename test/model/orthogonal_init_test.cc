// --weight-init orthogonal: every torso layer's flattened weight has
// orthonormal rows (or columns) times sqrt(2), the policy head times 0.01, the
// value head times 1, all biases zero; checked in double precision from the
// parameters themselves, against the closed form W W^T = gain^2 I.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include <torch/torch.h>

#include "seedrl/model/agent_net.h"
#include "seedrl/model/orthogonal_init.h"

using namespace seedrl;

namespace {

// Largest |(W W^T or W^T W) - gain^2 I| over the smaller Gram matrix of the
// weight flattened to [out, fan_in].
double orthogonality_error(const torch::Tensor& weight, double gain) {
  auto w = weight.detach().to(torch::kFloat64).flatten(1);
  if (w.size(0) > w.size(1)) w = w.t();
  const auto gram = w.matmul(w.t());
  const auto identity = torch::eye(gram.size(0), torch::kFloat64) * (gain * gain);
  return (gram - identity).abs().max().item<double>();
}

EnvSpec atari_like_env() { return EnvSpec{"img", ArraySpec{{84, 84, 4}, DType::kUInt8}, ActionSpec::discrete(6)}; }

}  // namespace

TEST_CASE("weight-init orthogonal gives PPO's gains: torso sqrt 2, policy 0.01, value 1, zero biases",
          "[model][agent_net]") {
  for (const std::string torso : {"impala-shallow", "nature", "impala"}) {
    INFO(torso);
    torch::manual_seed(3);
    ModelConfig config;
    config.torso = torso;
    config.weight_init = "orthogonal";
    AgentNet net(atari_like_env(), config, 6);
    int weights = 0;
    for (const auto& p : net->named_parameters()) {
      const std::string& name = p.key();
      INFO(name);
      if (name.size() >= 5 && name.compare(name.size() - 5, 5, ".bias") == 0) {
        CHECK(p.value().abs().max().item<float>() == 0.0f);
        continue;
      }
      ++weights;
      const double gain = name.rfind("policy.", 0) == 0 ? 0.01 : name.rfind("value.", 0) == 0 ? 1.0 : std::sqrt(2.0);
      CHECK(orthogonality_error(p.value(), gain) < 1e-5 * gain * gain + 1e-6);
    }
    CHECK(weights >= 4);  // at least two torso layers and both heads
  }
}

TEST_CASE("weight-init default keeps LibTorch's layers: the torso is not orthogonal, the policy head is scaled",
          "[model][agent_net]") {
  torch::manual_seed(3);
  ModelConfig config;
  config.torso = "impala-shallow";
  AgentNet net(atari_like_env(), config, 6);
  const auto params = net->named_parameters();
  // Kaiming-uniform rows are far from orthonormal: their Gram matrix is off by
  // more than a tenth of sqrt(2)^2 somewhere.
  CHECK(orthogonality_error(params["torso.conv0.weight"], std::sqrt(2.0)) > 0.2);
  // 0.01 times Kaiming uniform (bound 1/sqrt(256)).
  CHECK(params["policy.weight"].abs().max().item<float>() <= 0.01f / 16.0f + 1e-7f);
}

TEST_CASE("orthogonal_init leaves modules that are neither Linear nor Conv2d alone", "[model]") {
  torch::manual_seed(4);
  torch::nn::Sequential seq(torch::nn::Linear(5, 3), torch::nn::LSTMCell(3, 2));
  const auto lstm_before = seq[1]->named_parameters()["weight_ih"].clone();
  orthogonal_init(*seq, 2.0);
  CHECK(orthogonality_error(seq[0]->named_parameters()["weight"], 2.0) < 1e-5);
  CHECK(seq[0]->named_parameters()["bias"].abs().max().item<float>() == 0.0f);
  CHECK(torch::equal(seq[1]->named_parameters()["weight_ih"], lstm_before));
  CHECK_THROWS_WITH(orthogonal_init(*seq, 0.0), Catch::Contains("gain"));
}

TEST_CASE("weight-init rejects a name it does not know, naming the flag", "[model][agent_net]") {
  ModelConfig config;
  config.torso = "impala-shallow";
  config.weight_init = "xavier";
  CHECK_THROWS_WITH(AgentNet(atari_like_env(), config, 6), Catch::Contains("--weight-init"));
}
