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
