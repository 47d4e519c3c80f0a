// CudaGraphs: on CPU the forward runs eagerly, every call; on a GPU
// (hidden, run by bench/cuda/run-on-gpu.sh) a recurring batch size is replayed
// as a CUDA graph whose outputs match the eager forward on fresh inputs, after
// in-place weight changes, and with an LSTM state, while other sizes run eagerly.
#include <catch2/catch.hpp>

#include <torch/cuda.h>
#include <torch/torch.h>

#include "seedrl/env/registry.h"
#include "seedrl/model/agent_net.h"
#include "seedrl/model/policy_distribution.h"
#include "seedrl/util/cuda_graphs.h"
#include "seedrl/util/device_stream.h"

using namespace seedrl;

namespace {

struct Net {
  EnvSpec spec = EnvRegistry::builtin().make("cartpole", {})->spec();
  AgentNet model = nullptr;
  Net(bool lstm, torch::Device device) {
    ModelConfig config;
    config.hidden = {32, 32};
    config.lstm = lstm;
    config.lstm_size = 16;
    torch::manual_seed(11);
    model = AgentNet(spec, config, make_policy_distribution(spec.action)->param_size());
    model->to(device);
    model->eval();
  }
  // What the inference server hands CudaGraphs: obs [1, B, 4], first [1, B], h, c.
  std::vector<torch::Tensor> inputs(int batch, torch::Device device) const {
    auto f = torch::TensorOptions().device(device);
    std::vector<torch::Tensor> in{torch::randn({1, batch, 4}, f), torch::rand({1, batch}, f).lt(0.3).to(torch::kUInt8)};
    if (model->has_core()) {
      in.push_back(torch::randn({batch, 16}, f));
      in.push_back(torch::randn({batch, 16}, f));
    } else {
      in.resize(4);
    }
    return in;
  }
  CudaGraphs::Fn forward() {
    return [this](const std::vector<torch::Tensor>& in) {
      NetOutput o = model->forward(in[0], in[1], CoreState{in[2], in[3]});
      return std::vector<torch::Tensor>{o.policy, o.value, o.state.h, o.state.c};
    };
  }
};

double max_diff(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    REQUIRE(a[i].defined() == b[i].defined());
    if (a[i].defined()) worst = std::max(worst, (a[i] - b[i]).abs().max().item<double>());
  }
  return worst;
}

}  // namespace

TEST_CASE("CudaGraphs runs the forward eagerly on CPU", "[inference][graphs]") {
  c10::InferenceMode guard;
  Net net(GENERATE(false, true), torch::kCPU);
  CudaGraphs graphs(torch::kCPU, /*enabled=*/true, /*capture_after=*/1);
  int calls = 0;
  const auto fn = net.forward();
  const CudaGraphs::Fn counted = [&](const std::vector<torch::Tensor>& in) {
    ++calls;
    return fn(in);
  };
  for (int i = 0; i < 6; ++i) {
    const auto in = net.inputs(8, torch::kCPU);
    const auto out = graphs.run(8, in, counted);
    CHECK(max_diff(out, fn(in)) == 0);
    CHECK_FALSE(graphs.replayed_last());
  }
  CHECK(calls == 6);
  CHECK(graphs.captured() == 0);
}

TEST_CASE("CudaGraphs replays a recurring batch size as a CUDA graph", "[.gpu][inference][graphs]") {
  REQUIRE(torch::cuda::is_available());
  REQUIRE(CudaGraphs::supported());
  const torch::Device cuda(torch::kCUDA, 0);
  c10::InferenceMode guard;
  OwnStreamGuard stream(cuda);  // captures need a stream other than the default one
  const bool lstm = GENERATE(false, true);
  INFO("lstm " << lstm);
  Net net(lstm, cuda);
  CudaGraphs graphs(cuda, /*enabled=*/true, /*capture_after=*/2);
  const auto fn = net.forward();
  torch::manual_seed(3);
  int replays = 0;
  for (int i = 0; i < 16; ++i) {
    // Every fourth batch is part-full (flushed on the timeout), each time of
    // another size: seen too rarely to be captured.
    const int batch = i % 4 == 3 ? 5 + i / 4 : 16;
    if (i == 9) {
      // New weights, written in place as ParamPublisher does: the graph must see them.
      torch::NoGradGuard no_grad;
      for (auto& p : net.model->parameters()) p.mul_(1.1).add_(0.01);
    }
    const auto in = net.inputs(batch, cuda);
    const auto out = graphs.run(batch, in, fn);
    const bool replayed = graphs.replayed_last();
    const auto copy = [&] {
      std::vector<torch::Tensor> c;
      for (const auto& t : out) c.push_back(t.defined() ? t.clone() : t);
      return c;
    }();
    CHECK(max_diff(copy, fn(in)) < 1e-5);
    replays += replayed;
    CHECK(replayed == (batch == 16 && i >= 2));  // captured on its third run
  }
  CHECK(graphs.captured() == 1);
  CHECK(replays == 10);
}
