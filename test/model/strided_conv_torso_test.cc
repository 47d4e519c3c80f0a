// The IMPALA shallow and Nature DQN torsos against their published layer
// sizes and against the network written out op by op in double precision.
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "seedrl/model/agent_net.h"
#include "seedrl/model/torso.h"

using namespace seedrl;

namespace {

ModelConfig strided_config(const std::string& name) {
  ModelConfig c;
  c.torso = name;
  return c;
}

std::int64_t strided_parameter_count(const Torso& t) {
  std::int64_t n = 0;
  for (const auto& p : t.module.ptr()->parameters()) n += p.numel();
  return n;
}

std::int64_t conv(std::int64_t in, std::int64_t out, std::int64_t k) { return in * out * k * k + out; }

}  // namespace

TEST_CASE("impala-shallow torso has the paper's sizes on 84x84x4 frames", "[model][torso]") {
  Torso t = make_torso(ArraySpec{{84, 84, 4}, DType::kUInt8}, strided_config("impala-shallow"));
  CHECK(t.features == 256);
  // 84 -> (84 - 8) / 4 + 1 = 20 -> (20 - 4) / 2 + 1 = 9: 9 x 9 x 32 into fc 256.
  CHECK(strided_parameter_count(t) == conv(4, 16, 8) + conv(16, 32, 4) + 9 * 9 * 32 * 256 + 256);
  CHECK(strided_parameter_count(t) == 676144);
}

TEST_CASE("nature torso has the DQN paper's sizes on 84x84x4 frames", "[model][torso]") {
  Torso t = make_torso(ArraySpec{{84, 84, 4}, DType::kUInt8}, strided_config("nature"));
  CHECK(t.features == 512);
  // 84 -> 20 -> 9 -> 7: 7 x 7 x 64 = 3136 into fc 512 (Mnih et al. 2015).
  CHECK(strided_parameter_count(t) == conv(4, 32, 8) + conv(32, 64, 4) + conv(64, 64, 3) + 3136 * 512 + 512);
  CHECK(strided_parameter_count(t) == 1684128);  // with an 18-action output layer: the 1,693,362 often quoted
}

TEST_CASE("strided conv torsos compute their networks checked in double precision", "[model][torso]") {
  const std::string name = GENERATE(as<std::string>{}, "impala-shallow", "nature");
  // 36x40: the first layer runs over 4x4 pixel blocks; 37x41 (not divisible by its stride): directly.
  const std::int64_t h = GENERATE(36, 37);
  const std::int64_t w = h + 4;
  // A block row is 4 pixels x C channels: 3 channels give runs of 12 values,
  // copied by the general loop; 4 (a stack of 4 frames, as Atari's) give 16,
  // copied by the unrolled instance.
  const std::int64_t channels = GENERATE(3, 4);
  INFO(name << " on " << h << "x" << w << "x" << channels << " frames");
  struct Layer {
    int stride;
  };
  const std::vector<Layer> layers = name == "nature" ? std::vector<Layer>{{4}, {2}, {1}} : std::vector<Layer>{{4}, {2}};
  torch::manual_seed(9);
  const ArraySpec spec{{h, w, channels}, DType::kUInt8};
  Torso t = make_torso(spec, strided_config(name));
  auto params = t.module.ptr()->named_parameters();
  {
    torch::NoGradGuard no_grad;  // small random biases, so that a missing ReLU shows
    for (auto& p : params)
      if (p.key().find("bias") != std::string::npos) p.value().uniform_(-0.2, 0.2);
  }
  auto param = [&](const std::string& n) { return params[n].detach().to(torch::kFloat64); };
  namespace F = torch::nn::functional;
  const auto obs = torch::randint(0, 256, {2, h, w, channels}, torch::kUInt8);
  auto x = obs.to(torch::kFloat64).permute({0, 3, 1, 2}) / 255.0;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const std::string c = "conv" + std::to_string(i);
    x = torch::relu(
        F::conv2d(x, param(c + ".weight"), F::Conv2dFuncOptions().bias(param(c + ".bias")).stride(layers[i].stride)));
  }
  const auto want = torch::relu(F::linear(x.flatten(1), param("fc.weight"), param("fc.bias")));
  torch::Tensor got;
  {
    torch::NoGradGuard no_grad;
    got = t.module.forward(obs).to(torch::kFloat64);
  }
  REQUIRE(got.sizes() == want.sizes());
  CHECK(want.abs().max().item<double>() > 0.01);
  CHECK((got - want).abs().max().item<double>() < 1e-4);
}

// The first layer over pixel blocks must train the layer's own weights: its
// gradients, in float32 and in bfloat16, against the direct convolution's in
// double precision.
TEST_CASE("strided conv torsos' first-layer gradients match the direct convolution's in double precision",
          "[model][torso]") {
  const std::string name = GENERATE(as<std::string>{}, "impala-shallow", "nature");
  const std::string precision = GENERATE(as<std::string>{}, "fp32", "bf16");
  INFO(name << " in " << precision);
  torch::manual_seed(11);
  ModelConfig config = strided_config(name);
  config.precision = precision;
  Torso t = make_torso(ArraySpec{{40, 44, 4}, DType::kUInt8}, config);
  auto params = t.module.ptr()->named_parameters();
  {
    torch::NoGradGuard no_grad;
    for (auto& p : params)
      if (p.key().find("bias") != std::string::npos) p.value().uniform_(-0.2, 0.2);
  }
  const auto obs = torch::randint(0, 256, {3, 40, 44, 4}, torch::kUInt8);
  const auto out = t.module.forward(obs);
  const auto probe = torch::randn(out.sizes(), torch::kFloat64);
  (out.to(torch::kFloat64) * probe).sum().backward();

  // The same network in double precision, layer by layer, with autograd.
  namespace F = torch::nn::functional;
  std::map<std::string, torch::Tensor> ref;
  for (const auto& p : params) ref[p.key()] = p.value().detach().to(torch::kFloat64).requires_grad_(true);
  const std::vector<int> strides = name == "nature" ? std::vector<int>{4, 2, 1} : std::vector<int>{4, 2};
  auto x = obs.to(torch::kFloat64).permute({0, 3, 1, 2}) / 255.0;
  for (std::size_t i = 0; i < strides.size(); ++i) {
    const std::string c = "conv" + std::to_string(i);
    x = torch::relu(F::conv2d(x, ref[c + ".weight"], F::Conv2dFuncOptions().bias(ref[c + ".bias"]).stride(strides[i])));
  }
  (torch::relu(F::linear(x.flatten(1), ref["fc.weight"], ref["fc.bias"])) * probe).sum().backward();

  // Relative to the reference gradient's norm. bfloat16's 8-bit mantissa puts
  // the direct convolution's gradients 5-12% off in norm as well; weights
  // rearranged wrongly or a lost 1/255 are off by 100% or more.
  const double tolerance = precision == "fp32" ? 1e-5 : 0.25;
  for (const std::string n : {"conv0.weight", "conv0.bias", "conv1.weight"}) {
    INFO(n);
    const auto want = ref[n].grad();
    const auto got = params[n].grad().to(torch::kFloat64);
    REQUIRE(got.sizes() == want.sizes());
    CHECK(want.norm().item<double>() > 1e-3);
    CHECK((got - want).norm().item<double>() < tolerance * want.norm().item<double>());
  }
}

TEST_CASE("strided conv torsos refuse frames smaller than their kernels, naming --model", "[model][torso]") {
  using Catch::Matchers::Contains;
  // The shallow net needs (4 - 1) * 4 + 8 = 20 pixels a side.
  CHECK_THROWS_WITH(make_torso(ArraySpec{{19, 40, 4}, DType::kUInt8}, strided_config("impala-shallow")),
                    Contains("--model") && Contains("H,W >= 20"));
  CHECK(make_torso(ArraySpec{{20, 20, 4}, DType::kUInt8}, strided_config("impala-shallow")).features == 256);
  // Nature: ((3 - 1) * 2 + 4 - 1) * 4 + 8 = 36.
  CHECK_THROWS_WITH(make_torso(ArraySpec{{40, 35, 4}, DType::kUInt8}, strided_config("nature")),
                    Contains("--model") && Contains("H,W >= 36"));
  CHECK(make_torso(ArraySpec{{36, 36, 1}, DType::kUInt8}, strided_config("nature")).features == 512);
  CHECK_THROWS_WITH(make_torso(ArraySpec{{4}, DType::kFloat32}, strided_config("nature")), Contains("--model"));
}

// PreparesInput: the blocks a learner makes ahead of a pass (all frames, or a
// gathered minibatch's in the same pass) must give the pass's numbers and
// gradients exactly, or the learner's update would change with them.
TEST_CASE("strided conv torsos' prepared frames give the same outputs and gradients exactly", "[model][torso]") {
  const std::string precision = GENERATE(as<std::string>{}, "fp32", "bf16");
  INFO("impala-shallow in " << precision);
  ModelConfig config = strided_config("impala-shallow");
  config.precision = precision;
  torch::manual_seed(13);
  Torso t = make_torso(ArraySpec{{40, 44, 4}, DType::kUInt8}, config);
  const auto* prepares = dynamic_cast<const PreparesInput*>(t.module.ptr().get());
  REQUIRE(prepares != nullptr);
  const auto obs = torch::randint(0, 256, {6, 40, 44, 4}, torch::kUInt8);
  const auto index = torch::tensor({4, 1, 3, 1}, torch::kInt64);
  const auto run = [&](const torch::Tensor& input) {
    t.module.ptr()->zero_grad();
    const auto out = t.module.forward(input);
    (out.to(torch::kFloat64) * torch::linspace(-1, 1, out.numel(), torch::kFloat64).view(out.sizes())).sum().backward();
    std::vector<torch::Tensor> result{out.detach().clone()};
    for (const auto& p : t.module.ptr()->parameters()) result.push_back(p.grad().clone());
    return result;
  };
  const auto same = [](const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b) {
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!torch::equal(a[i], b[i])) return false;
    return true;
  };
  const auto blocks = prepares->prepare(obs, index);
  REQUIRE(blocks.defined());
  CHECK(blocks.sizes() == torch::IntArrayRef({4, 64, 10, 11}));  // 4x4 blocks of 4 channels
  CHECK(same(run(blocks), run(obs.index_select(0, index))));
  CHECK(same(run(prepares->prepare(obs, {})), run(obs)));
  CHECK_FALSE(same(run(prepares->prepare(obs, torch::tensor({4, 1, 3, 2}))), run(obs.index_select(0, index))));
  CHECK_THROWS_WITH(prepares->prepare(obs, torch::tensor({0, 6})), Catch::Contains("outside the 6 frames"));
  CHECK_THROWS_WITH(prepares->prepare(obs, torch::tensor({-1})), Catch::Contains("outside the 6 frames"));
  // Frames the stride does not divide are read directly: nothing to prepare.
  Torso odd = make_torso(ArraySpec{{37, 41, 4}, DType::kUInt8}, config);
  const auto* odd_prepares = dynamic_cast<const PreparesInput*>(odd.module.ptr().get());
  REQUIRE(odd_prepares != nullptr);
  CHECK_FALSE(odd_prepares->prepare(torch::zeros({2, 37, 41, 4}, torch::kUInt8), {}).defined());
}

TEST_CASE("AgentNet's prepared observations of some unrolls equal those unrolls' forward pass", "[model][torso]") {
  EnvSpec spec;
  spec.name = "frames";
  spec.observation = ArraySpec{{40, 44, 4}, DType::kUInt8};
  spec.action = ActionSpec::discrete(6);
  ModelConfig config = strided_config("impala-shallow");
  config.precision = GENERATE(as<std::string>{}, "fp32", "bf16");
  torch::manual_seed(17);
  AgentNet net(spec, config, 6);
  const auto obs = torch::randint(0, 256, {5, 4, 40, 44, 4}, torch::kUInt8);  // [T, B, ...]
  const auto first = torch::zeros({5, 3}, torch::kBool);
  const auto unrolls = torch::tensor({2, 0, 3}, torch::kInt64);
  torch::NoGradGuard no_grad;
  const auto prepared = net->prepare_obs(obs, unrolls);
  CHECK(prepared.scalar_type() != torch::kUInt8);  // blocks, not frames
  const NetOutput got = net->forward(prepared, first, {});
  const NetOutput want = net->forward(obs.index_select(1, unrolls), first, {});
  CHECK(torch::equal(got.policy, want.policy));
  CHECK(torch::equal(got.value, want.value));
  const NetOutput all = net->forward(net->prepare_obs(obs), torch::zeros({5, 4}, torch::kBool), {});
  CHECK(torch::equal(all.value, net->forward(obs, torch::zeros({5, 4}, torch::kBool), {}).value));
  // An MLP has no other form: the unrolls come back gathered as they are.
  EnvSpec vector_spec = spec;
  vector_spec.observation = ArraySpec{{7}, DType::kFloat32};
  ModelConfig mlp;
  AgentNet vector_net(vector_spec, mlp, 6);
  const auto vectors = torch::randn({5, 4, 7});
  CHECK(torch::equal(vector_net->prepare_obs(vectors, unrolls), vectors.index_select(1, unrolls)));
  CHECK(vector_net->prepare_obs(vectors).is_same(vectors));
}
