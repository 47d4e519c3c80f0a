// The hand-written MLP pass against LibTorch's autograd over the same
// parameters, in double precision: outputs, every parameter's gradient and
// the gradient to a range of input columns, for ReLU and tanh, at two batch
// sizes through the same buffers.
#include <catch2/catch.hpp>

#include <vector>

#include <torch/torch.h>

#include "seedrl/learner/mlp_pass.h"

using seedrl::MlpPass;

namespace {

std::vector<torch::Tensor> random_layers(const std::vector<std::int64_t>& widths, torch::Generator& g) {
  std::vector<torch::Tensor> params;
  for (std::size_t i = 0; i + 1 < widths.size(); ++i) {
    params.push_back(torch::randn({widths[i + 1], widths[i]}, g, torch::kFloat64).mul_(0.5).requires_grad_(true));
    params.push_back(torch::randn({widths[i + 1]}, g, torch::kFloat64).mul_(0.1).requires_grad_(true));
  }
  return params;
}

// The reference: the network in ordinary autograd ops.
torch::Tensor autograd_forward(const std::vector<torch::Tensor>& params, const torch::Tensor& x, bool tanh) {
  torch::Tensor h = x;
  for (std::size_t i = 0; i < params.size(); i += 2) {
    h = torch::matmul(h, params[i].t()) + params[i + 1];
    if (i + 2 < params.size()) h = tanh ? torch::tanh(h) : torch::relu(h);
  }
  return h;
}

// The error's norm relative to the reference's (double).
double mlp_relative_error(const torch::Tensor& got, const torch::Tensor& ref) {
  return (got.to(torch::kFloat64) - ref).norm().item<double>() / ref.norm().item<double>();
}

}  // namespace

TEST_CASE("MlpPass: outputs and gradients are autograd's, for ReLU and tanh at two batch sizes", "[learner][mlp]") {
  const bool tanh = GENERATE(false, true);
  INFO((tanh ? "tanh" : "relu"));
  torch::Generator g = at::detail::createCPUGenerator(21);
  const std::vector<torch::Tensor> params = random_layers({7, 16, 12, 3}, g);
  MlpPass pass(params, tanh);
  for (const std::int64_t n : {9, 5, 9}) {
    INFO("batch " << n);
    const torch::Tensor x = torch::randn({n, 7}, g, torch::kFloat64).requires_grad_(true);
    const torch::Tensor grad_out = torch::randn({n, 3}, g, torch::kFloat64);

    const torch::Tensor& y = pass.forward(x.detach());
    const torch::Tensor hand_y = y.clone();
    const torch::Tensor hand_dx = pass.backward(grad_out, true, 4, 3);
    std::vector<torch::Tensor> hand_grads;
    for (const auto& p : params) hand_grads.push_back(p.grad().clone());

    for (const auto& p : params) p.mutable_grad() = torch::Tensor();
    const torch::Tensor ref_y = autograd_forward(params, x, tanh);
    ref_y.backward(grad_out);

    CHECK(torch::allclose(hand_y, ref_y.detach(), 1e-12, 1e-12));
    for (std::size_t i = 0; i < params.size(); ++i) {
      INFO("parameter " << i);
      CHECK(torch::allclose(hand_grads[i], params[i].grad(), 1e-12, 1e-12));
    }
    REQUIRE(hand_dx.sizes() == torch::IntArrayRef({n, 3}));
    CHECK(torch::allclose(hand_dx, x.grad().narrow(1, 4, 3), 1e-12, 1e-12));
    // Not a trivially passing comparison: some ReLUs are off, gradients are not zero.
    CHECK(hand_dx.abs().sum().item<double>() > 0);
    for (const auto& p : params) p.mutable_grad() = torch::Tensor();
  }
}

TEST_CASE("MlpPass: in float32 (oneDNN's products where built with it), outputs and gradients are double autograd's",
          "[learner][mlp]") {
  const bool tanh = GENERATE(false, true);
  INFO((tanh ? "tanh" : "relu"));
  torch::Generator g = at::detail::createCPUGenerator(25);
  // SAC's critic's shapes: 17 observations and 6 actions in, 256 wide, one value out.
  const std::vector<torch::Tensor> exact = random_layers({23, 256, 256, 1}, g);
  std::vector<torch::Tensor> params;
  for (const auto& p : exact) params.push_back(p.detach().to(torch::kFloat32));
  MlpPass pass(params, tanh);
  for (const std::int64_t n : {256, 31}) {
    INFO("batch " << n);
    const torch::Tensor x = torch::randn({n, 23}, g, torch::kFloat64);
    const torch::Tensor grad_out = torch::randn({n, 1}, g, torch::kFloat64);
    const torch::Tensor xr = x.clone().requires_grad_(true);
    for (const auto& p : exact) p.mutable_grad() = torch::Tensor();
    const torch::Tensor ref_y = autograd_forward(exact, xr, tanh);
    ref_y.backward(grad_out);

    const torch::Tensor y = pass.forward(x.to(torch::kFloat32)).clone();
    const torch::Tensor dx = pass.backward(grad_out.to(torch::kFloat32), true, 17, 6);
    // Float32's rounding (the last bias's gradient, a sum of n terms that
    // cancel, loses most), far from a wrong product's error of order 1.
    CHECK(mlp_relative_error(y, ref_y.detach()) < 1e-5);
    CHECK(mlp_relative_error(dx, xr.grad().narrow(1, 17, 6)) < 1e-5);
    for (std::size_t i = 0; i < params.size(); ++i) {
      INFO("parameter " << i);
      CHECK(mlp_relative_error(params[i].grad(), exact[i].grad()) < 1e-4);
    }
  }
}

TEST_CASE("MlpPass: without parameter gradients it leaves .grad() alone and gives only the input's", "[learner][mlp]") {
  torch::Generator g = at::detail::createCPUGenerator(22);
  const std::vector<torch::Tensor> params = random_layers({4, 8, 1}, g);
  MlpPass pass(params, false);
  const torch::Tensor x = torch::randn({6, 4}, g, torch::kFloat64);
  pass.forward(x);
  const torch::Tensor dx = pass.backward(torch::ones({6, 1}, torch::kFloat64), false, 0, 4);
  for (const auto& p : params) CHECK_FALSE(p.grad().defined());
  const torch::Tensor xr = x.clone().requires_grad_(true);
  autograd_forward(params, xr, false).sum().backward();
  CHECK(torch::allclose(dx, xr.grad(), 1e-12, 1e-12));
  CHECK_FALSE(pass.backward(torch::ones({6, 1}, torch::kFloat64), false).defined());
}

TEST_CASE("MlpPass: refuses parameters that are not a chain of Linear layers, and misuse", "[learner][mlp]") {
  torch::Generator g = at::detail::createCPUGenerator(23);
  std::vector<torch::Tensor> params = random_layers({4, 8, 2}, g);
  CHECK_THROWS_WITH(MlpPass({params[0]}, false), Catch::Contains("weight and a bias"));
  CHECK_THROWS_WITH(MlpPass({params[0], params[0]}, false), Catch::Contains("layer 0"));
  CHECK_THROWS_WITH(MlpPass({params[0], params[1], params[0], params[1]}, false), Catch::Contains("layer 1 takes 4"));
  MlpPass pass(params, false);
  CHECK_THROWS_WITH(pass.backward(torch::ones({3, 2}, torch::kFloat64), true), Catch::Contains("before forward"));
  CHECK_THROWS_WITH(pass.forward(torch::ones({3, 5}, torch::kFloat64)), Catch::Contains("for 4 inputs"));
  pass.forward(torch::ones({3, 4}, torch::kFloat64));
  CHECK_THROWS_WITH(pass.backward(torch::ones({2, 2}, torch::kFloat64), true), Catch::Contains("shape"));
  CHECK_THROWS_WITH(pass.backward(torch::ones({3, 2}, torch::kFloat64), true, 3, 2), Catch::Contains("outside 4"));
}

// The bfloat16 pass's documented arithmetic, in double precision through
// autograd: each hidden layer's operands and product rounded to bfloat16 (a
// rounding cast's backward rounds the gradient that crosses it, as the pass
// rounds the gradients its matmuls take and give), the biases and the last
// layer exact.
torch::Tensor bf16_reference_forward(const std::vector<torch::Tensor>& params, const torch::Tensor& x, bool tanh) {
  const auto round = [](const torch::Tensor& t) { return t.to(torch::kBFloat16).to(torch::kFloat64); };
  torch::Tensor h = x;
  for (std::size_t i = 0; i < params.size(); i += 2) {
    const bool hidden = i + 2 < params.size();
    h = hidden ? round(torch::matmul(round(h), round(params[i]).t())) + params[i + 1]
               : torch::matmul(h, params[i].t()) + params[i + 1];
    if (hidden) h = tanh ? torch::tanh(h) : torch::relu(h);
  }
  return h;
}

TEST_CASE("MlpPass: bfloat16 matmuls round as documented, against double precision", "[learner][mlp]") {
  const bool tanh = GENERATE(false, true);
  INFO((tanh ? "tanh" : "relu"));
  torch::Generator g = at::detail::createCPUGenerator(24);
  const std::vector<torch::Tensor> exact = random_layers({9, 64, 48, 4}, g);
  std::vector<torch::Tensor> rounded, params;
  for (const auto& p : exact) {
    rounded.push_back(p.detach().clone().requires_grad_(true));
    params.push_back(p.detach().to(torch::kFloat32));
  }
  const std::int64_t n = 32;
  const torch::Tensor x = torch::randn({n, 9}, g, torch::kFloat64);
  const torch::Tensor grad_out = torch::randn({n, 4}, g, torch::kFloat64);
  const torch::Tensor x_exact = x.clone().requires_grad_(true), x_rounded = x.clone().requires_grad_(true);
  const torch::Tensor y_exact = autograd_forward(exact, x_exact, tanh);
  y_exact.backward(grad_out);
  const torch::Tensor y_rounded = bf16_reference_forward(rounded, x_rounded, tanh);
  y_rounded.backward(grad_out);

  MlpPass pass(params, tanh, true);
  const torch::Tensor y = pass.forward(x.to(torch::kFloat32)).clone();
  const torch::Tensor dx = pass.backward(grad_out.to(torch::kFloat32), true, 2, 5);
  // Float32's rounding apart, and now and then a sum that float32 rounds to
  // the neighbouring bfloat16 (2^-8 relative, in one entry of many; how
  // often depends on the kernel's order of summation, AMX's or
  // AVX512-BF16's), still far below bfloat16's own error (the last checks).
  // The input's gradient is taken in float32 whole, where the reference
  // rounds it once: bfloat16's rounding apart.
  CHECK(mlp_relative_error(y, y_rounded.detach()) < 1e-4);
  CHECK(mlp_relative_error(dx, x_rounded.grad().narrow(1, 2, 5)) < 1e-2);
  for (std::size_t i = 0; i < params.size(); ++i) {
    INFO("parameter " << i);
    REQUIRE(params[i].grad().scalar_type() == torch::kFloat32);
    CHECK(mlp_relative_error(params[i].grad(), rounded[i].grad()) < 1e-3);
  }
  // Not float32 arithmetic: the output and the first layer's weight gradient
  // are off the exact pass's by far more than float32's rounding (2^-24).
  CHECK(mlp_relative_error(y, y_exact.detach()) > 1e-4);
  CHECK(mlp_relative_error(params[0].grad(), exact[0].grad()) > 1e-4);
}
