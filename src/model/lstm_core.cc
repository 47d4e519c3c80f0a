#include "seedrl/model/lstm_core.h"

#include <tuple>
#include <vector>

#include <torch/torch.h>

namespace seedrl {

CoreState zero_core_state(std::int64_t batch, std::int64_t size, torch::Device device) {
  auto opts = torch::TensorOptions().dtype(torch::kFloat32).device(device);
  return {torch::zeros({batch, size}, opts), torch::zeros({batch, size}, opts)};
}

torch::Tensor unroll_lstm(torch::nn::LSTMCell& cell, const torch::Tensor& x, const torch::Tensor& first,
                          CoreState& state) {
  const auto T = x.size(0);
  auto keep = (1 - first.to(torch::kFloat32)).unsqueeze(-1);  // [T, B, 1]
  std::vector<torch::Tensor> outs;
  outs.reserve(static_cast<std::size_t>(T));
  auto h = state.h, c = state.c;
  for (std::int64_t t = 0; t < T; ++t) {
    h = h * keep[t];
    c = c * keep[t];
    std::tie(h, c) = cell->forward(x[t], std::make_tuple(h, c));
    outs.push_back(h);
  }
  state = {h, c};
  return torch::stack(outs);
}

}  // namespace seedrl
