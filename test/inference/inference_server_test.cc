// The one inference loop under both algorithms' PolicySteps: a store that
// refuses appends (shutting down) still leaves every row of a batch with its
// action, and R2D2's step feeds the Q-network each env's previous action and
// reward, records [previous action, Q-values] and leaves evaluation slots out;
// threads that answer actors before recording keep each slot's steps in order.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include <torch/torch.h>

#include "seedrl/env/registry.h"
#include "seedrl/inference/actor_critic_step.h"
#include "seedrl/inference/epsilon_greedy.h"
#include "seedrl/inference/inference_server.h"
#include "seedrl/inference/q_value_step.h"

using namespace seedrl;

namespace {

EnvSpec cartpole() { return EnvRegistry::builtin().make("cartpole", {})->spec(); }

ModelConfig small_model() {
  ModelConfig m;
  m.hidden = {8};
  m.lstm = true;
  m.lstm_size = 4;
  return m;
}

UnrollLayout layout_for(const EnvSpec& spec, int policy_size, int length, int overlap) {
  UnrollLayout l;
  l.observation = spec.observation;
  l.action_width = spec.action.width();
  l.policy_size = policy_size;
  l.core_size = small_model().lstm_size;
  l.length = length;
  l.overlap = overlap;
  return l;
}

// Submits one batch of `rows` steps (slots 0..rows-1) through a server the
// factory makes over `batcher` and `store`; returns the actions written.
template <typename MakeServer>
std::vector<float> one_batch(const EnvSpec& spec, TrajectoryStore& store, int rows, MakeServer make_server) {
  RequestBatcher batcher(spec.observation, rows, std::chrono::microseconds(1000),
                         RequestBatcher::buffers_needed(rows, rows, 1), false);
  std::unique_ptr<InferenceServer> server = make_server(batcher, store);
  server->start();
  std::vector<float> obs(static_cast<std::size_t>(rows) * 4, 0.1f);
  std::vector<float> actions(static_cast<std::size_t>(rows), -1.f);  // not an action of cartpole
  std::vector<EnvStep> steps(static_cast<std::size_t>(rows));
  for (int i = 0; i < rows; ++i) steps[i] = EnvStep{i, kFirst, 0.f, obs.data() + i * 4, actions.data() + i};
  Completion done;
  CHECK(batcher.submit(steps, done));  // the batch completes: its actors are answered
  server->stop();
  CHECK(server->stats().rows == static_cast<std::uint64_t>(rows));
  return actions;
}

void check_all_acted(const std::vector<float>& actions) {
  for (std::size_t i = 0; i < actions.size(); ++i) {
    INFO("row " << i);
    CHECK((actions[i] == 0.f || actions[i] == 1.f));
  }
}

}  // namespace

TEST_CASE("a closed store still leaves every row of a V-trace batch with its action", "[inference][inference_server]") {
  const EnvSpec spec = cartpole();
  const int P = make_policy_distribution(spec.action)->param_size();
  auto make_model = [&] { return AgentNet(spec, small_model(), P); };
  ParamPublisher publisher;
  publisher.publish(*make_model(), 0);
  const int rows = 4;
  TrajectoryStore store(layout_for(spec, P, 5, 1), rows, 4, 1);
  store.close();  // the first append of the batch is refused
  check_all_acted(one_batch(spec, store, rows, [&](RequestBatcher& batcher, TrajectoryStore& s) {
    return std::make_unique<InferenceServer>(
        batcher, &s, publisher, std::make_unique<ActorCriticStep>(make_model, spec.action, rows), rows, 1, torch::kCPU);
  }));
}

TEST_CASE("a closed store still leaves every row of an R2D2 batch with its action",
          "[inference][inference_server][r2d2]") {
  const EnvSpec spec = cartpole();
  auto make_model = [&] { return QNet(spec, small_model()); };
  ParamPublisher publisher;
  publisher.publish(*make_model(), 0);
  const int rows = 4;
  TrajectoryStore store(layout_for(spec, 1 + spec.action.num_actions, 5, 1), rows, 4, 1);
  store.close();
  check_all_acted(one_batch(spec, store, rows, [&](RequestBatcher& batcher, TrajectoryStore& s) {
    auto greedy = std::make_unique<r2d2::EpsilonGreedySelector>(spec.action.num_actions, rows, 0, 0.0, 7, 0.0, 1);
    return r2d2::make_q_inference_server(batcher, s, publisher, make_model, std::move(greedy), rows, rows, 1,
                                         torch::kCPU);
  }));
}

TEST_CASE("R2D2 inference feeds back previous actions, records [previous action, Q] and skips eval slots",
          "[inference][inference_server][r2d2]") {
  const EnvSpec spec = cartpole();
  const int A = spec.action.num_actions;
  auto make_model = [&] { return QNet(spec, small_model()); };
  torch::manual_seed(3);
  QNet reference = make_model();
  ParamPublisher publisher;
  publisher.publish(*reference, 0);

  // Slot 0 trains, slot 1 is an evaluation env; both act greedily.
  const int train_envs = 1, slots = 2, T = 3;
  TrajectoryStore store(layout_for(spec, 1 + A, T, 0), slots, 4, 1);
  RequestBatcher batcher(spec.observation, slots, std::chrono::microseconds(1000),
                         RequestBatcher::buffers_needed(slots, slots, 1), false);
  auto greedy = std::make_unique<r2d2::EpsilonGreedySelector>(A, train_envs, slots - train_envs, 0.0, 7, 0.0, 1);
  auto server = r2d2::make_q_inference_server(batcher, store, publisher, make_model, std::move(greedy), train_envs,
                                              slots, 1, torch::kCPU);
  server->start();

  torch::manual_seed(4);
  const torch::Tensor obs = torch::randn({T, slots, 4});
  std::vector<float> actions(slots, -1.f);
  std::vector<float> eval_actions;
  for (int t = 0; t < T; ++t) {
    std::vector<EnvStep> steps(slots);
    for (int s = 0; s < slots; ++s) {
      actions[s] = -1.f;
      steps[s] = EnvStep{s, static_cast<std::uint8_t>(t == 0 ? kFirst : 0), t == 0 ? 0.f : 0.5f * t,
                         obs[t][s].data_ptr<float>(), actions.data() + s};
    }
    Completion done;
    REQUIRE(batcher.submit(steps, done));
    eval_actions.push_back(actions[1]);
  }
  UnrollBatch unroll;
  REQUIRE(store.next_batch(1, unroll));
  server->stop();                         // every answered step recorded
  CHECK(store.unrolls_completed() == 1);  // slot 0's; the evaluation slot is not recorded
  CHECK(unroll.slots[0].item<std::int64_t>() == 0);
  for (float a : eval_actions) CHECK((a == 0.f || a == 1.f));

  // The network as the learner runs it over the sequence: previous actions
  // (-1 at the start) and rewards rebuilt from the record.
  const torch::Tensor recorded_actions = unroll.actions.select(1, 0).squeeze(1);  // [T]
  const torch::Tensor policy = unroll.policy.select(1, 0);                        // [T, 1 + A]
  const torch::Tensor prev_action = policy.select(1, 0);
  CHECK(prev_action[0].item<float>() == -1.f);
  CHECK(torch::equal(prev_action.narrow(0, 1, T - 1), recorded_actions.narrow(0, 0, T - 1)));
  torch::NoGradGuard no_grad;
  const torch::Tensor first = torch::tensor({1, 0, 0}, torch::kUInt8).unsqueeze(1);
  const torch::Tensor prev_reward = torch::tensor({0.f, 0.5f, 1.f}).unsqueeze(1);
  QOutput out = reference->forward(obs.select(1, 0).unsqueeze(1), first, prev_action.unsqueeze(1), prev_reward,
                                   reference->initial_state(1));
  const torch::Tensor q = out.q.select(1, 0);  // [T, A]
  CHECK((policy.narrow(1, 1, A) - q).abs().max().item<double>() < 1e-5);
  CHECK(torch::equal(recorded_actions, q.argmax(-1).to(torch::kFloat32)));  // greedy
}

TEST_CASE("inference threads that answer before recording keep every slot's steps in order",
          "[inference][inference_server]") {
  // Many actors, tiny batches and four inference threads: a slot's next step
  // often reaches another thread while the one that answered the step before
  // is still recording. Each step carries its number as observation and
  // reward, so every unroll must hold consecutive numbers, each with its own
  // reward (the actors overwrite their EnvSteps as soon as they are answered).
  const EnvSpec spec = cartpole();
  const int P = make_policy_distribution(spec.action)->param_size();
  auto make_model = [&] { return AgentNet(spec, small_model(), P); };
  ParamPublisher publisher;
  publisher.publish(*make_model(), 0);
  const int actors = 8, envs_per_actor = 4, slots = actors * envs_per_actor, steps = 150, L = 5;
  const int unrolls_per_slot = (steps - 1) / (L - 1);
  TrajectoryStore store(layout_for(spec, P, L, 1), slots, slots * unrolls_per_slot, 1);
  const int batch = 3, threads = 4;
  RequestBatcher batcher(spec.observation, batch, std::chrono::microseconds(200),
                         RequestBatcher::buffers_needed(slots, batch, threads), false);
  InferenceServer server(batcher, &store, publisher, std::make_unique<ActorCriticStep>(make_model, spec.action, slots),
                         slots, threads, torch::kCPU);
  server.start();
  std::vector<std::thread> pool;
  std::atomic<int> bad_actions{0};
  for (int a = 0; a < actors; ++a) {
    pool.emplace_back([&, a] {
      std::vector<float> obs(envs_per_actor * 4), actions(envs_per_actor);
      std::vector<EnvStep> envs(envs_per_actor);
      Completion done;
      for (int t = 0; t < steps; ++t) {
        for (int e = 0; e < envs_per_actor; ++e) {
          std::fill_n(obs.data() + e * 4, 4, static_cast<float>(t));
          actions[e] = -1.f;
          envs[e] = EnvStep{a * envs_per_actor + e, static_cast<std::uint8_t>(t == 0 ? kFirst : 0),
                            static_cast<float>(t), obs.data() + e * 4, actions.data() + e};
        }
        if (!batcher.submit(envs, done)) return;
        for (float x : actions)
          if (x != 0.f && x != 1.f) ++bad_actions;
      }
    });
  }
  for (auto& t : pool) t.join();
  for (int s = 0; s < slots; ++s) server.settle_slot(s);  // every answered step recorded
  CHECK(store.unrolls_completed() == static_cast<std::uint64_t>(slots * unrolls_per_slot));
  server.stop();
  CHECK(bad_actions.load() == 0);
  CHECK(server.stats().rows == static_cast<std::uint64_t>(slots * steps));
  std::vector<int> seen(slots, 0);
  UnrollBatch unroll;
  for (int u = 0; u < slots * unrolls_per_slot; ++u) {
    REQUIRE(store.next_batch(1, unroll));
    const int slot = static_cast<int>(unroll.slots[0].item<std::int64_t>());
    const torch::Tensor obs = unroll.obs.select(1, 0).select(1, 0);  // [L]: each entry's step number
    const torch::Tensor rewards = unroll.rewards.select(1, 0);       // [L]
    const float start = obs[0].item<float>();
    INFO("slot " << slot << ", unroll from step " << start);
    CHECK(start == static_cast<float>(seen[slot] * (L - 1)));  // a slot's unrolls in order, none skipped
    CHECK(torch::equal(obs, torch::arange(L, torch::kFloat32) + start));
    CHECK(torch::equal(rewards, obs));
    ++seen[slot];
  }
}
