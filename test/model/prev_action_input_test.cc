// --prev-action-input: the V-trace net's heads (or LSTM) also read the
// one-hot of the env's previous action. Checked against a double-precision
// reference of the network, and end to end: what inference feeds and records
// is what the learner rebuilds, so the learner's forward on a recorded unroll
// reproduces the acting logits exactly and V-trace sees on-policy data.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "seedrl/env/registry.h"
#include "seedrl/inference/actor_critic_step.h"
#include "seedrl/inference/inference_server.h"
#include "seedrl/learner/vtrace_learner.h"
#include "seedrl/model/forward_cost.h"
#include "seedrl/trainer/agent_policy.h"

using namespace seedrl;

namespace {

EnvSpec three_actions() {
  EnvSpec s;
  s.name = "vec";
  s.observation = ArraySpec{{3}, DType::kFloat32};
  s.action = ActionSpec::discrete(3);
  return s;
}

ModelConfig with_prev_action(bool lstm) {
  ModelConfig m;
  m.hidden = {4};
  m.prev_action_input = true;
  m.lstm = lstm;
  m.lstm_size = 5;
  return m;
}

}  // namespace

TEST_CASE("--prev-action-input: the heads read [relu(W x + b), one_hot(previous action)], zeros for none",
          "[model][agent_net]") {
  torch::manual_seed(11);
  const EnvSpec spec = three_actions();
  AgentNet net(spec, with_prev_action(false), 3);
  REQUIRE(net->takes_prev_action());
  std::map<std::string, torch::Tensor> p;
  for (const auto& item : net->named_parameters()) p[item.key()] = item.value().to(torch::kFloat64);
  REQUIRE(p.at("policy.weight").sizes() == std::vector<std::int64_t>{3, 4 + 3});
  REQUIRE(p.at("value.weight").sizes() == std::vector<std::int64_t>{1, 4 + 3});

  const int T = 2, B = 4;
  const auto obs = torch::randn({T, B, 3});
  const auto prev = torch::tensor({-1.f, 0.f, 1.f, 2.f, 2.f, -1.f, 0.f, 1.f}).view({T, B});
  torch::NoGradGuard no_grad;
  const NetOutput out = net->forward(obs, torch::zeros({T, B}, torch::kUInt8), {}, prev);
  const auto w1 = p.at("torso.layers.0.weight"), b1 = p.at("torso.layers.0.bias");
  const auto wp = p.at("policy.weight"), bp = p.at("policy.bias");
  const auto wv = p.at("value.weight"), bv = p.at("value.bias");
  for (int t = 0; t < T; ++t) {
    for (int b = 0; b < B; ++b) {
      std::vector<double> in(7, 0.0);
      for (int i = 0; i < 4; ++i) {
        double s = b1[i].item<double>();
        for (int k = 0; k < 3; ++k) s += w1[i][k].item<double>() * obs[t][b][k].item<float>();
        in[i] = std::max(0.0, s);
      }
      const int a = static_cast<int>(prev[t][b].item<float>());
      if (a >= 0) in[4 + a] = 1.0;
      INFO("t " << t << " b " << b << " previous action " << a);
      for (int j = 0; j < 3; ++j) {
        double s = bp[j].item<double>();
        for (int i = 0; i < 7; ++i) s += wp[j][i].item<double>() * in[i];
        CHECK(out.policy[t][b][j].item<float>() == Approx(s).margin(1e-6));
      }
      double v = bv[0].item<double>();
      for (int i = 0; i < 7; ++i) v += wv[0][i].item<double>() * in[i];
      CHECK(out.value[t][b].item<float>() == Approx(v).margin(1e-6));
    }
  }
}

TEST_CASE("--prev-action-input is refused for box actions and without the previous actions, naming the flag",
          "[model][agent_net]") {
  EnvSpec box = three_actions();
  box.action = ActionSpec::box({-1.f}, {1.f});
  CHECK_THROWS_WITH(AgentNet(box, with_prev_action(false), 2), Catch::Contains("--prev-action-input"));
  AgentNet net(three_actions(), with_prev_action(false), 3);
  CHECK_THROWS_WITH(net->forward(torch::zeros({1, 1, 3}), torch::zeros({1, 1}, torch::kUInt8), {}),
                    Catch::Contains("--prev-action-input"));
  // The trainer's cost probe (learner_cpus) runs such a model before any step: it feeds it actions too.
  CHECK(measure_forward_ns(three_actions(), with_prev_action(true), 3, 4, 0.01) > 0);
}

TEST_CASE(
    "--prev-action-input end to end: inference records each step's previous action and the learner's forward "
    "on the unroll reproduces the acting policy",
    "[model][agent_net][inference]") {
  const EnvSpec spec = EnvRegistry::builtin().make("cartpole", {})->spec();
  const int P = make_policy_distribution(spec.action)->param_size();
  const ModelConfig config = with_prev_action(/*lstm=*/true);
  auto make_model = [&] { return AgentNet(spec, config, P); };
  torch::manual_seed(12);
  AgentNet reference = make_model();
  ParamPublisher publisher;
  publisher.publish(*reference, 0);

  // Two envs over 8 steps; slot 1 starts a new episode at step 4.
  const int slots = 2, L = 8;
  UnrollLayout layout;
  layout.observation = spec.observation;
  layout.action_width = spec.action.width();
  layout.policy_size = P + 1;
  layout.core_size = config.lstm_size;
  layout.length = L;
  layout.overlap = 1;
  TrajectoryStore store(layout, slots, 4, slots);
  RequestBatcher batcher(spec.observation, slots, std::chrono::microseconds(1000),
                         RequestBatcher::buffers_needed(slots, slots, 1), false);
  auto step = std::make_unique<ActorCriticStep>(make_model, spec.action, slots);
  REQUIRE(step->record_size() == P + 1);
  InferenceServer server(batcher, &store, publisher, std::move(step), slots, 1, torch::kCPU);
  server.start();
  torch::manual_seed(13);
  const torch::Tensor obs = torch::randn({L, slots, 4});
  std::vector<float> actions(slots);
  for (int t = 0; t < L; ++t) {
    std::vector<EnvStep> steps(slots);
    for (int s = 0; s < slots; ++s) {
      actions[s] = -1.f;
      const bool first = t == 0 || (s == 1 && t == 4);
      steps[s] = EnvStep{s, static_cast<std::uint8_t>(first ? kFirst : 0), 0.f, obs[t][s].data_ptr<float>(),
                         actions.data() + s};
    }
    Completion done;
    REQUIRE(batcher.submit(steps, done));
  }
  for (int s = 0; s < slots; ++s) server.settle_slot(s);
  UnrollBatch batch;
  REQUIRE(store.next_batch(slots, batch));
  server.stop();

  const torch::Tensor prev = recorded_prev_action(batch);  // [L, B]
  for (int b = 0; b < slots; ++b) {
    const int s = static_cast<int>(batch.slots[b].item<std::int64_t>());
    INFO("slot " << s);
    const torch::Tensor acted = batch.actions.select(1, b).squeeze(1);
    for (int t = 0; t < L; ++t) {
      const bool first = t == 0 || (s == 1 && t == 4);
      CHECK(prev[t][b].item<float>() == (first ? -1.f : acted[t - 1].item<float>()));
    }
  }
  torch::NoGradGuard no_grad;
  const NetOutput out = vtrace_forward(reference, batch, torch::kCPU);
  CHECK((out.policy - batch.policy.narrow(-1, 0, P)).abs().max().item<double>() < 1e-5);
  // The losses read only the distribution's parameters of each row: the data is on-policy.
  auto dist = make_policy_distribution(spec.action);
  const VTraceLosses l = vtrace_losses(reference, *dist, batch, VTraceLossConfig{}, torch::kCPU);
  CHECK(l.mean_rho.item<double>() == Approx(1.0).epsilon(1e-5));
}

TEST_CASE("--prev-action-input: eval and play feed the policy its own previous action, none after a reset",
          "[model][agent_net][trainer]") {
  torch::manual_seed(14);
  const EnvSpec spec = three_actions();
  AgentNet net(spec, with_prev_action(false), 3);
  {
    // Large previous-action weights, so the greedy action depends on them.
    torch::NoGradGuard no_grad;
    net->named_parameters()["policy.weight"].narrow(1, 4, 3).copy_(
        torch::tensor({0.f, 0.f, 9.f, 9.f, 0.f, 0.f, 0.f, 9.f, 0.f}).view({3, 3}));
  }
  PlayPolicy policy = agent_play_policy(net, spec, /*greedy=*/true, 1);
  const float obs[3] = {0.f, 0.f, 0.f};
  std::vector<float> taken;
  for (int t = 0; t < 6; ++t) {
    float a = -1.f;
    policy(obs, t == 0 || t == 3, 0.f, &a);
    taken.push_back(a);
  }
  // The reference: the same net stepped with the previous actions written out.
  std::vector<float> expected;
  float prev = -1.f;
  for (int t = 0; t < 6; ++t) {
    if (t == 0 || t == 3) prev = -1.f;
    torch::NoGradGuard no_grad;
    const NetOutput out =
        net->forward(torch::zeros({1, 1, 3}), torch::zeros({1, 1}, torch::kUInt8), {}, torch::full({1, 1}, prev));
    prev = static_cast<float>(out.policy[0][0].argmax().item<std::int64_t>());
    expected.push_back(prev);
  }
  CHECK(taken == expected);
  // Action a (0 -> 1 -> 2 -> 0) follows the weights above, so the sequence cycles.
  CHECK(std::set<float>(taken.begin() + 1, taken.begin() + 3).size() == 2);
}
