// The shared LSTM unroll against the LSTM equations written out in double
// precision (PyTorch's gate order i, f, g, o), with the state zeroed where
// an episode starts.
#include <catch2/catch.hpp>

#include <torch/torch.h>

#include "seedrl/model/lstm_core.h"

using namespace seedrl;

TEST_CASE("unroll_lstm follows the LSTM equations and zeroes the state at episode starts", "[model][lstm]") {
  torch::manual_seed(3);
  const std::int64_t T = 5, B = 3, F = 4, H = 6;
  torch::nn::LSTMCell cell(F, H);
  const auto x = torch::randn({T, B, F});
  auto first = torch::zeros({T, B}, torch::kUInt8);
  first[0][0] = 1;  // env 0 starts at step 0
  first[2][1] = 1;  // env 1 starts mid-unroll
  first[4][2] = 1;  // env 2 at the last step
  CoreState state{torch::randn({B, H}), torch::randn({B, H})};
  const CoreState start{state.h.clone(), state.c.clone()};
  torch::Tensor out;
  {
    torch::NoGradGuard no_grad;
    out = unroll_lstm(cell, x, first, state);
  }
  REQUIRE(out.sizes() == std::vector<std::int64_t>{T, B, H});

  auto d = [](const torch::Tensor& t) { return t.detach().to(torch::kFloat64); };
  const auto w_ih = d(cell->weight_ih), w_hh = d(cell->weight_hh), b = d(cell->bias_ih) + d(cell->bias_hh);
  for (std::int64_t e = 0; e < B; ++e) {
    auto h = d(start.h[e]), c = d(start.c[e]);
    for (std::int64_t t = 0; t < T; ++t) {
      if (first[t][e].item<int>()) h.zero_(), c.zero_();
      const auto gates = torch::mv(w_ih, d(x[t][e])) + torch::mv(w_hh, h) + b;
      const auto i = torch::sigmoid(gates.slice(0, 0, H)), f = torch::sigmoid(gates.slice(0, H, 2 * H));
      const auto g = torch::tanh(gates.slice(0, 2 * H, 3 * H)), o = torch::sigmoid(gates.slice(0, 3 * H, 4 * H));
      c = f * c + i * g;
      h = o * torch::tanh(c);
      CHECK((d(out[t][e]) - h).abs().max().item<double>() < 1e-5);
    }
    CHECK((d(state.h[e]) - h).abs().max().item<double>() < 1e-5);
    CHECK((d(state.c[e]) - c).abs().max().item<double>() < 1e-5);
  }
  const CoreState zero = zero_core_state(2, H, torch::kCPU);
  CHECK(zero.h.sizes() == std::vector<std::int64_t>{2, H});
  CHECK(zero.c.abs().sum().item<double>() == 0);
}
