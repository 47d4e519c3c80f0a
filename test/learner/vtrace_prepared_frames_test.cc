// The V-trace update on Atari-shaped frames hands the torso its first layer's
// blocks made ahead of each pass (AgentNet::prepare_obs: once per batch with
// one minibatch, gathered and made in one go per minibatch with several).
// The weights it reaches must be exactly those of plain passes over the
// frames, gathered by hand.
#include <catch2/catch.hpp>
#include <string>

#include <torch/torch.h>

#include "seedrl/env/env_step.h"
#include "seedrl/learner/vtrace_learner.h"
#include "seedrl/model/agent_net.h"

using namespace seedrl;

namespace {

struct FramesFixture {
  EnvSpec spec;
  ModelConfig model;
  int T = 4;
  AgentNet init{nullptr};

  explicit FramesFixture(const std::string& precision) {
    spec.name = "frames";
    spec.observation = ArraySpec{{40, 44, 4}, DType::kUInt8};
    spec.action = ActionSpec::discrete(6);
    model.torso = "impala-shallow";
    model.precision = precision;
    torch::manual_seed(21);
    init = AgentNet(spec, model, 6);
  }
  AgentNet clone() const {
    AgentNet m(spec, model, 6);
    copy_parameters(*init, *m);
    return m;
  }
  UnrollBatch batch(int B) const {
    torch::manual_seed(22);
    const int L = T + 1;
    UnrollBatch b;
    b.obs = torch::randint(0, 256, {L, B, 40, 44, 4}, torch::kUInt8);
    b.actions = torch::randint(0, 6, {L, B, 1}).to(torch::kFloat32);
    b.policy = torch::randn({L, B, 6});
    b.rewards = torch::randn({L, B});
    b.flags = torch::zeros({L, B}, torch::kUInt8);
    b.flags[2][1] = kTerminated;  // an episode end inside one unroll
    b.flags[3][1] = kFirst;
    b.versions = torch::zeros({B}, torch::kInt64);
    return b;
  }
};

bool same_weights(AgentNet& a, AgentNet& b) {
  const auto pa = a->parameters(), pb = b->parameters();
  for (std::size_t i = 0; i < pa.size(); ++i)
    if (!torch::equal(pa[i], pb[i])) return false;
  return true;
}

}  // namespace

TEST_CASE("V-trace updates over prepared frames reach the plain passes' weights exactly", "[learner][vtrace]") {
  const std::string precision = GENERATE(as<std::string>{}, "fp32", "bf16");
  const int minibatches = GENERATE(1, 2);
  INFO(precision << ", " << minibatches << " minibatch(es) per epoch");
  FramesFixture f(precision);
  LearnerConfig config;
  config.epochs = 2;
  config.minibatches = minibatches;
  const int B = 4;
  const UnrollBatch b = f.batch(B);
  auto dist = make_policy_distribution(f.spec.action);
  AgentNet a = f.clone(), c = f.clone();
  auto opt_a = make_optimizer(config.optimizer, a->parameters());
  auto opt_c = make_optimizer(config.optimizer, c->parameters());
  VTraceLosses la, lc;
  torch::manual_seed(5);
  vtrace_update(a, *dist, *opt_a, b, config, torch::kCPU, 1e-3, la);
  // The reference: the same shuffles, plain passes over uint8 frames gathered
  // with index_select (the torso converts them inside its forward pass).
  LearnerConfig one_pass;
  for (auto& group : opt_c->param_groups()) group.options().set_lr(1e-3);
  torch::manual_seed(5);
  const int share = B / minibatches;
  for (int epoch = 0; epoch < 2; ++epoch) {
    const auto order = minibatches > 1 ? torch::randperm(B, torch::TensorOptions().dtype(torch::kInt64))
                                       : torch::arange(B, torch::kInt64);
    for (int m = 0; m < minibatches; ++m) {
      const UnrollBatch part = minibatches > 1 ? select_unrolls(b, order.narrow(0, m * share, share)) : b;
      REQUIRE(part.obs.scalar_type() == torch::kUInt8);
      vtrace_pass(c, *dist, *opt_c, part, one_pass, torch::kCPU, lc, 0, {}, nullptr);
    }
  }
  CHECK(same_weights(a, c));
  CHECK(la.total.item<double>() == lc.total.item<double>());
  // One more plain pass tells them apart: the comparison can fail.
  vtrace_pass(c, *dist, *opt_c, b, one_pass, torch::kCPU, lc, 0, {}, nullptr);
  CHECK_FALSE(same_weights(a, c));
}
