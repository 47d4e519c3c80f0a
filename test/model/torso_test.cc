#include <catch2/catch.hpp>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <torch/torch.h>

#include "seedrl/model/torso.h"

using namespace seedrl;

namespace {

std::int64_t count_parameters(const Torso& t) {
  std::int64_t n = 0;
  for (const auto& p : t.module.ptr()->parameters()) n += p.numel();
  return n;
}

torch::Tensor forward(Torso& t, const torch::Tensor& x) {
  torch::NoGradGuard no_grad;
  return t.module.forward(x);
}

ModelConfig with_torso(const std::string& name) {
  ModelConfig c;
  c.torso = name;
  return c;
}

}  // namespace

TEST_CASE("minatar torso has the reference sizes", "[model][torso]") {
  const ArraySpec obs{{10, 10, 4}, DType::kUInt8};  // Breakout
  Torso t = make_torso(obs, with_torso("minatar"));
  CHECK(t.features == 128);
  // conv: 4 in x 16 out x 3x3 + 16 biases; valid padding leaves 8x8x16 = 1024
  // inputs for the 128-unit layer.
  const std::int64_t conv = 4 * 16 * 9 + 16;       // 592
  const std::int64_t fc = 8 * 8 * 16 * 128 + 128;  // 131200
  CHECK(count_parameters(t) == conv + fc);
  auto y = forward(t, torch::randint(0, 2, {5, 10, 10, 4}, torch::kUInt8));
  CHECK(y.sizes() == std::vector<std::int64_t>{5, 128});
  CHECK(y.min().item<float>() >= 0.f);  // ends in ReLU
}

TEST_CASE("minatar torso matches a double-precision loop over HWC input", "[model][torso]") {
  const int H = 10, W = 10, C = 3, O = 16, F = 128, Ho = H - 2, Wo = W - 2;
  torch::manual_seed(3);
  Torso t = make_torso(ArraySpec{{H, W, C}, DType::kUInt8}, with_torso("minatar"));
  auto x = torch::randint(0, 2, {1, H, W, C}, torch::kUInt8);
  auto y = forward(t, x);

  auto params = t.module.ptr()->named_parameters();
  auto cw = params["conv.weight"].to(torch::kFloat64).contiguous();  // [O, C, 3, 3]
  auto cb = params["conv.bias"].to(torch::kFloat64);
  auto fw = params["fc.weight"].to(torch::kFloat64).contiguous();  // [F, O*Ho*Wo]
  auto fb = params["fc.bias"].to(torch::kFloat64);
  auto xi = x.to(torch::kFloat64).contiguous();
  const double* X = xi.data_ptr<double>();  // [H, W, C]
  const double* Wc = cw.data_ptr<double>();
  std::vector<double> hidden(O * Ho * Wo);
  for (int o = 0; o < O; ++o)
    for (int i = 0; i < Ho; ++i)
      for (int j = 0; j < Wo; ++j) {
        double s = cb[o].item<double>();
        for (int c = 0; c < C; ++c)
          for (int di = 0; di < 3; ++di)
            for (int dj = 0; dj < 3; ++dj)
              s += Wc[((o * C + c) * 3 + di) * 3 + dj] * X[((i + di) * W + (j + dj)) * C + c];
        hidden[(o * Ho + i) * Wo + j] = std::max(0.0, s);  // flattened as C, H, W
      }
  const double* Wf = fw.data_ptr<double>();
  for (int f = 0; f < F; ++f) {
    double s = fb[f].item<double>();
    for (int k = 0; k < O * Ho * Wo; ++k) s += Wf[f * O * Ho * Wo + k] * hidden[k];
    CHECK(y[0][f].item<double>() == Approx(std::max(0.0, s)).margin(1e-4));
  }
}

TEST_CASE("impala torso has the reference sizes on 84x84x4 frames", "[model][torso]") {
  Torso t = make_torso(ArraySpec{{84, 84, 4}, DType::kUInt8}, with_torso("impala"));
  CHECK(t.features == 256);
  // A 3x3 conv from a to b channels has 9ab + b parameters; each stack is one
  // conv then two residual blocks of two b->b convs.
  auto conv = [](std::int64_t a, std::int64_t b) { return 9 * a * b + b; };
  const std::int64_t stack1 = conv(4, 16) + 4 * conv(16, 16);   // 592 + 4 * 2320
  const std::int64_t stack2 = conv(16, 32) + 4 * conv(32, 32);  // 4640 + 4 * 9248
  const std::int64_t stack3 = conv(32, 32) + 4 * conv(32, 32);  // 9248 + 4 * 9248
  // Each 3x3 stride-2 pool with padding 1 halves rounding up: 84 -> 42 -> 21 -> 11.
  const std::int64_t fc = 11 * 11 * 32 * 256 + 256;
  CHECK(stack1 + stack2 + stack3 + fc == 1089232);
  CHECK(count_parameters(t) == 1089232);
  auto y = forward(t, torch::randint(0, 256, {2, 84, 84, 4}, torch::kUInt8));
  CHECK(y.sizes() == std::vector<std::int64_t>{2, 256});
}

TEST_CASE("impala torso computes the paper's network, checked in double precision", "[model][torso]") {
  // Espeholt et al. 2018, fig. 3, written out op by op from the torso's own
  // weights: pixels / 255; per stack conv 3x3, max-pool 3x3 stride 2, two
  // residual blocks x + conv(relu(conv(relu(x)))); ReLU, fc 256, ReLU. Catches
  // a missing scale, a moved ReLU or a residual that does not add.
  torch::manual_seed(5);
  Torso t = make_torso(ArraySpec{{12, 9, 3}, DType::kUInt8}, with_torso("impala"));
  auto params = t.module.ptr()->named_parameters();
  // Small random biases, so that a ReLU in the wrong place changes the output.
  {
    torch::NoGradGuard no_grad;
    for (auto& p : params)
      if (p.key().find("bias") != std::string::npos) p.value().uniform_(-0.2, 0.2);
  }
  auto w = [&](const std::string& name) { return params[name].detach().to(torch::kFloat64); };
  namespace F = torch::nn::functional;
  auto conv = [&](const torch::Tensor& x, const std::string& name) {
    return F::conv2d(x, w(name + ".weight"), F::Conv2dFuncOptions().bias(w(name + ".bias")).padding(1));
  };
  const auto obs = torch::randint(0, 256, {2, 12, 9, 3}, torch::kUInt8);
  auto x = obs.to(torch::kFloat64).permute({0, 3, 1, 2}) / 255.0;
  for (int s = 0; s < 3; ++s) {
    const std::string stack = "stack" + std::to_string(s);
    x = F::max_pool2d(conv(x, stack + ".conv"), F::MaxPool2dFuncOptions(3).stride(2).padding(1));
    for (const char* res : {".res0", ".res1"}) {
      const auto y = conv(torch::relu(conv(torch::relu(x), stack + res + ".conv0")), stack + res + ".conv1");
      x = x + y;
    }
  }
  const auto want = torch::relu(F::linear(torch::relu(x).flatten(1), w("fc.weight"), w("fc.bias")));
  const auto got = forward(t, obs).to(torch::kFloat64);
  REQUIRE(got.sizes() == want.sizes());
  CHECK(want.abs().max().item<double>() > 0.01);  // not trivially zero
  CHECK((got - want).abs().max().item<double>() < 1e-4);
}

TEST_CASE("impala torso rounds odd sides up at every pool", "[model][torso]") {
  // 10 -> 5 -> 3 -> 2 and 7 -> 4 -> 2 -> 1: 2 * 1 * 32 features into the fc.
  Torso t = make_torso(ArraySpec{{10, 7, 2}, DType::kUInt8}, with_torso("impala"));
  auto params = t.module.ptr()->named_parameters();
  CHECK(params["fc.weight"].sizes() == std::vector<std::int64_t>{256, 2 * 1 * 32});
  CHECK(forward(t, torch::zeros({3, 10, 7, 2}, torch::kUInt8)).sizes() == std::vector<std::int64_t>{3, 256});
}

TEST_CASE("auto torso picks by observation shape", "[model][torso]") {
  CHECK(resolve_torso(ArraySpec{{10, 10, 4}, DType::kUInt8}, "auto") == "minatar");
  CHECK(resolve_torso(ArraySpec{{16, 16, 1}, DType::kUInt8}, "auto") == "minatar");
  CHECK(resolve_torso(ArraySpec{{17, 16, 1}, DType::kUInt8}, "auto") == "impala");
  CHECK(resolve_torso(ArraySpec{{84, 84, 4}, DType::kUInt8}, "auto") == "impala");
  CHECK(resolve_torso(ArraySpec{{4}, DType::kFloat32}, "auto") == "mlp");
  CHECK(resolve_torso(ArraySpec{{4}, DType::kFloat32}, "impala") == "impala");
  CHECK(make_torso(ArraySpec{{10, 10, 6}, DType::kUInt8}, ModelConfig{}).features == 128);
  CHECK(make_torso(ArraySpec{{3}, DType::kFloat32}, ModelConfig{}).features == 64);
}

TEST_CASE("a torso that does not fit the observation is refused naming --model", "[model][torso]") {
  using Catch::Matchers::Contains;
  const ArraySpec vec{{3}, DType::kFloat32};
  CHECK_THROWS_WITH(make_torso(vec, with_torso("minatar")), Contains("--model") && Contains("float32[3]"));
  CHECK_THROWS_WITH(make_torso(vec, with_torso("impala")), Contains("--model"));
  CHECK_THROWS_WITH(make_torso(ArraySpec{{2, 9, 1}, DType::kUInt8}, with_torso("minatar")), Contains("--model"));
  CHECK_THROWS_WITH(make_torso(vec, with_torso("resnet")), Contains("--model") && Contains("resnet"));
  CHECK_THROWS_AS(make_torso(vec, with_torso("resnet")), std::invalid_argument);
}

// --precision bf16: the image torsos compute in bfloat16 (so their output
// differs from float32's by bfloat16's rounding, ~2^-8 relative, and not by
// more) while their weights and gradients stay float32.
static void check_bf16_torso(const std::string& name, torch::Device device) {
  CAPTURE(name, device.str());
  const ArraySpec obs =
      name == "minatar" ? ArraySpec{{10, 10, 4}, DType::kUInt8} : ArraySpec{{36, 36, 4}, DType::kUInt8};
  ModelConfig fp32 = with_torso(name), bf16 = with_torso(name);
  bf16.precision = "bf16";
  torch::manual_seed(5);
  Torso a = make_torso(obs, fp32);
  torch::manual_seed(5);
  Torso b = make_torso(obs, bf16);
  a.module.ptr()->to(device);
  b.module.ptr()->to(device);
  auto pa = a.module.ptr()->parameters(), pb = b.module.ptr()->parameters();
  REQUIRE(pa.size() == pb.size());
  for (std::size_t i = 0; i < pa.size(); ++i) REQUIRE(torch::equal(pa[i], pb[i]));

  const auto& s = obs.shape;
  auto x = (name == "minatar" ? torch::randint(0, 2, {6, s[0], s[1], s[2]}, torch::kUInt8)
                              : torch::randint(0, 256, {6, s[0], s[1], s[2]}, torch::kUInt8))
               .to(device);
  auto ya = a.module.forward(x), yb = b.module.forward(x);
  CHECK(yb.scalar_type() == torch::kFloat32);  // the heads and core see float32
  const double rel = ((yb - ya).norm() / ya.norm()).item<double>();
  CHECK(rel > 1e-4);  // bfloat16 did run
  CHECK(rel < 3e-2);

  // Gradients reach the float32 weights, pointing where float32's do.
  (ya * ya).sum().backward();
  (yb * yb).sum().backward();
  for (std::size_t i = 0; i < pa.size(); ++i) {
    CHECK(pb[i].scalar_type() == torch::kFloat32);
    REQUIRE(pb[i].grad().defined());
    CHECK(pb[i].grad().scalar_type() == torch::kFloat32);
    const auto ga = pa[i].grad().flatten().to(torch::kFloat64), gb = pb[i].grad().flatten().to(torch::kFloat64);
    const double cosine = (ga.dot(gb) / (ga.norm() * gb.norm() + 1e-30)).item<double>();
    CHECK(cosine > 0.98);
  }
}

TEST_CASE("bf16 image torsos compute in bfloat16 and train float32 weights", "[model][torso]") {
  check_bf16_torso(GENERATE(as<std::string>{}, "minatar", "impala", "impala-shallow", "nature"), torch::kCPU);
}

// Hidden (bench/cuda/run-on-gpu.sh): the same on the GPU's bfloat16 kernels.
TEST_CASE("bf16 image torsos on CUDA compute in bfloat16 and train float32 weights", "[.gpu][model][torso]") {
  REQUIRE(torch::cuda::is_available());
  check_bf16_torso(GENERATE(as<std::string>{}, "minatar", "impala", "impala-shallow", "nature"),
                   torch::Device(torch::kCUDA, 0));
}

TEST_CASE("precision bf16 is refused for the MLP torso, and unknown precisions, naming --precision", "[model][torso]") {
  using Catch::Matchers::Contains;
  ModelConfig c;
  c.precision = "bf16";
  CHECK_THROWS_WITH(make_torso(ArraySpec{{4}, DType::kFloat32}, c), Contains("--precision") && Contains("MLP"));
  c.precision = "fp16";
  CHECK_THROWS_WITH(make_torso(ArraySpec{{10, 10, 4}, DType::kUInt8}, c), Contains("--precision") && Contains("fp16"));
  CHECK_THROWS_WITH(make_torso(ArraySpec{{4}, DType::kFloat32}, c), Contains("--precision") && Contains("fp16"));
}
