// The R2D2 learner on synthetic sequences: updates run through burn-in and
// write back priorities, the target network follows the online one only at
// its period, and checkpoints carry the target network.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

#include <torch/torch.h>

#include "seedrl/env/env_step.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/learner/r2d2/r2d2_learner.h"

using namespace seedrl;
using namespace seedrl::r2d2;

namespace {

EnvSpec vector_spec() {
  EnvSpec s;
  s.name = "synthetic";
  s.observation.shape = {4};
  s.action.num_actions = 2;
  return s;
}

ModelConfig lstm_model() {
  ModelConfig m;
  m.hidden = {16};
  m.lstm = true;
  m.lstm_size = 8;
  return m;
}

bool same_parameters(torch::nn::Module& a, torch::nn::Module& b) {
  auto pa = a.parameters(), pb = b.parameters();
  for (std::size_t i = 0; i < pa.size(); ++i)
    if (!torch::equal(pa[i], pb[i])) return false;
  return true;
}

struct R2d2Fixture {
  EnvSpec spec = vector_spec();
  UnrollLayout layout;
  std::unique_ptr<Replay> replay;
  ParamPublisher publisher;
  R2d2Fixture() {
    layout.observation = spec.observation;
    layout.core_size = 8;
    layout.length = 4 + 8 + 1;  // burn-in 4, 8 trained steps
    ReplayConfig rc;
    rc.capacity = 32;
    rc.check_memory = false;
    replay = std::make_unique<Replay>(layout, rc);
    torch::manual_seed(3);
    for (int i = 0; i < 32; ++i) {
      UnrollBatch b;
      const auto L = layout.length;
      b.obs = torch::randn({L, 1, 4});
      b.actions = torch::randint(0, 2, {L, 1, 1}).to(torch::kFloat32);
      b.policy = torch::cat({torch::full({1, 1, 1}, -1.f), b.actions.slice(0, 0, L - 1)});
      b.rewards = torch::full({L, 1}, 3.f);
      b.flags = torch::zeros({L, 1}, torch::kUInt8);
      b.flags[0][0] = kFirst;
      b.flags[6][0] = kTerminated;  // an episode end inside the trained window
      b.flags[7][0] = kFirst;
      b.core_h = torch::zeros({1, 8});
      b.core_c = torch::zeros({1, 8});
      b.versions = torch::zeros({1}, torch::kInt64);
      REQUIRE(replay->insert(b, 0));
    }
  }
};

}  // namespace

TEST_CASE("r2d2 learner updates write priorities and follow the target period", "[r2d2][learner]") {
  R2d2Fixture f;
  R2D2Config rc;
  rc.burn_in = 4;
  rc.n_step = 3;
  rc.target_update_period = 3;
  LearnerConfig lc;
  lc.batch_size = 8;
  lc.optimizer.learning_rate = 1e-2;
  lc.loss.discount = 0.9;
  R2D2Learner learner([&] { return QNet(f.spec, lstm_model()); }, rc, lc, *f.replay, f.publisher, {torch::kCPU});
  CHECK(same_parameters(*learner.model(), *learner.target()));
  R2D2Stats s;
  REQUIRE(learner.step(s));
  CHECK(std::isfinite(s.loss));
  CHECK(s.loss > 0);
  CHECK(s.td_error > 0);
  CHECK(s.importance_weight_mean <= 1.0);
  CHECK_FALSE(same_parameters(*learner.model(), *learner.target()));  // not yet copied
  // Rescaled 3-step returns of reward 3 are near 2: the sampled sequences get new priorities above the initial 1.
  CHECK(f.replay->priority_stats().max > 1.5);
  REQUIRE(learner.step(s));
  REQUIRE(learner.step(s));
  CHECK(learner.steps() == 3);
  CHECK(same_parameters(*learner.model(), *learner.target()));  // copied at step 3
  CHECK(f.publisher.version() == 3);

  // The checkpoint carries the target network.
  const auto path = (std::filesystem::temp_directory_path() / "r2d2_learner_ckpt.pt").string();
  save_checkpoint(path, *learner.model(), learner.optimizer(), {}, "{}", {{"target", learner.target().ptr().get()}});
  QNet other(f.spec, lstm_model());
  QNet other_target(f.spec, lstm_model());
  load_checkpoint(path, *other, nullptr, {{"target", other_target.ptr().get()}});
  CHECK(same_parameters(*other_target, *learner.target()));
  CHECK(same_parameters(*other, *learner.model()));
  std::filesystem::remove(path);
}

TEST_CASE("the Q-network zeroes its state and previous action at episode starts", "[r2d2][model]") {
  torch::manual_seed(5);
  QNet net(vector_spec(), lstm_model());
  auto obs = torch::randn({3, 2, 4});
  auto first = torch::tensor({{0, 0}, {1, 0}, {0, 0}}, torch::kUInt8);
  auto prev_a = torch::tensor({{1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}});
  auto prev_r = torch::tensor({{2.f, 1.f}, {5.f, 1.f}, {1.f, 0.f}});
  auto state = CoreState{torch::randn({2, 8}), torch::randn({2, 8})};
  auto out = net->forward(obs, first, prev_a, prev_r, state);
  REQUIRE(out.q.sizes() == torch::IntArrayRef({3, 2, 2}));
  // Env 0 restarts at step 1: its q there equals a fresh run from step 1 with
  // zero state and no previous action or reward.
  auto fresh = net->forward(obs.slice(0, 1, 3).slice(1, 0, 1), torch::tensor({{1}, {0}}, torch::kUInt8),
                            torch::tensor({{-1.f}, {1.f}}), torch::tensor({{0.f}, {1.f}}), net->initial_state(1));
  CHECK(torch::allclose(out.q.slice(0, 1, 3).slice(1, 0, 1), fresh.q, 1e-5, 1e-6));
}

TEST_CASE("r2d2 loss: importance-weighted 0.5 mean squared TD error after the burn-in", "[r2d2][learner]") {
  // Reference: the whole sequence run through each network from the stored
  // state (so the burn-in's state carry is checked too), the n-step targets
  // from n_step_double_q_targets (checked against a double loop elsewhere),
  // and the loss summed in double: per sequence 0.5 * the mean of delta^2
  // over its valid steps, times its importance weight, over the normalizer.
  torch::manual_seed(21);
  const EnvSpec spec = vector_spec();
  QNet online(spec, lstm_model()), target(spec, lstm_model());
  constexpr int B = 3, burn = 4, T = 8, L = burn + T + 1;
  UnrollBatch b;
  b.obs = torch::randn({L, B, 4});
  b.actions = torch::randint(0, 2, {L, B, 1}).to(torch::kFloat32);
  b.policy = torch::cat({torch::full({1, B, 1}, -1.f), b.actions.slice(0, 0, L - 1)});
  b.rewards = torch::randn({L, B});
  b.flags = torch::zeros({L, B}, torch::kUInt8);
  b.flags[0].fill_(kFirst);
  b.flags[2][1] = kTerminated;  // sequence 1: an episode ends inside the burn-in
  b.flags[3][1] = kFirst;
  b.flags[8][2] = kTruncated;  // sequence 2: one ends inside the trained window
  b.flags[9][2] = kFirst;
  b.core_h = torch::randn({B, 8});
  b.core_c = torch::randn({B, 8});
  const auto weights = torch::tensor({1.0f, 0.5f, 0.25f});
  R2D2Config rc;
  rc.burn_in = burn;
  rc.n_step = 3;
  VTraceLossConfig lc;
  lc.discount = 0.95;
  const std::int64_t normalizer = 5;
  R2D2Losses l = r2d2_losses(online, target, b, weights, rc, lc, torch::kCPU, normalizer);

  auto first = (b.flags.to(torch::kInt32) & kFirst).ne(0);
  auto prev = b.policy.select(-1, 0);
  torch::Tensor q_on, q_tg;
  {
    torch::NoGradGuard no_grad;
    q_on = online->forward(b.obs, first, prev, b.rewards, {b.core_h, b.core_c}).q.slice(0, burn, L);
    q_tg = target->forward(b.obs, first, prev, b.rewards, {b.core_h, b.core_c}).q.slice(0, burn, L);
  }
  NStepTargets tg = n_step_double_q_targets(b.rewards.slice(0, burn, L), b.flags.slice(0, burn, L), q_on, q_tg,
                                            lc.discount, rc.n_step);
  REQUIRE(tg.targets.size(0) == T);
  double loss = 0;
  int valid_steps = 0;
  for (int j = 0; j < B; ++j) {
    double sum = 0, count = 0;
    for (int t = 0; t < T; ++t) {
      if (tg.valid[t][j].item<float>() == 0) continue;
      const int a = static_cast<int>(b.actions[burn + t][j][0].item<float>());
      const double delta = tg.targets[t][j].item<double>() - q_on[t][j][a].item<double>();
      CHECK(l.td_abs[t][j].item<double>() == Approx(std::abs(delta)).margin(1e-5));
      sum += delta * delta;
      count += 1;
    }
    valid_steps += static_cast<int>(count);
    loss += weights[j].item<double>() * 0.5 * sum / std::max(1.0, count);
  }
  CHECK(valid_steps == B * T - 1);  // the truncated step of sequence 2 starts no transition
  CHECK(l.loss.item<double>() == Approx(loss / normalizer).epsilon(1e-5));

  // No gradient reaches the stored state through the burn-in: the loss is
  // the same function of the weights whatever the prefix's graph would say.
  online->zero_grad();
  l.loss.backward();
  for (const auto& p : online->parameters()) REQUIRE(p.grad().defined());
  auto state_h = b.core_h.clone().requires_grad_(true);
  UnrollBatch with_grad = b;
  with_grad.core_h = state_h;
  r2d2_losses(online, target, with_grad, weights, rc, lc, torch::kCPU, normalizer).loss.backward();
  CHECK_FALSE(state_h.grad().defined());
}

// A checkpoint's optimizer state carries the learning rate it was saved
// with; a run resumed under another --learning-rate must step at the new one
// (as it reports, and as a GPU learner's device step always did), not at the
// checkpoint's.
TEST_CASE("a resumed r2d2 learner steps at its configured learning rate and not at the checkpoint's",
          "[r2d2][learner]") {
  R2d2Fixture f;
  R2D2Config rc;
  rc.burn_in = 4;
  LearnerConfig saved_lc, resumed_lc;
  saved_lc.batch_size = resumed_lc.batch_size = 8;
  saved_lc.optimizer.learning_rate = 5e-2;
  resumed_lc.optimizer.learning_rate = 1e-3;
  auto make = [&] {
    torch::manual_seed(9);
    return QNet(f.spec, lstm_model());
  };
  R2D2Learner saved(make, rc, saved_lc, *f.replay, f.publisher, {torch::kCPU});
  R2D2Stats s;
  REQUIRE(saved.step(s));
  const auto path = (std::filesystem::temp_directory_path() / "r2d2_learner_lr_ckpt.pt").string();
  save_checkpoint(path, *saved.model(), saved.optimizer(), {}, "{}", {{"target", saved.target().ptr().get()}});

  // Both load the checkpoint; the reference's optimizer is then set back to
  // the configured rate by hand.
  R2D2Learner resumed(make, rc, resumed_lc, *f.replay, f.publisher, {torch::kCPU});
  R2D2Learner reference(make, rc, resumed_lc, *f.replay, f.publisher, {torch::kCPU});
  for (R2D2Learner* l : {&resumed, &reference})
    load_checkpoint(path, *l->model(), &l->optimizer(), {{"target", l->target().ptr().get()}});
  std::filesystem::remove(path);
  for (auto& group : reference.optimizer().param_groups()) group.options().set_lr(resumed_lc.optimizer.learning_rate);
  REQUIRE(same_parameters(*resumed.model(), *reference.model()));

  ReplaySample sample;
  REQUIRE(f.replay->sample(8, sample));
  R2D2Stats a, b;
  resumed.update(sample, a);
  reference.update(sample, b);
  CHECK(a.learning_rate == resumed_lc.optimizer.learning_rate);
  CHECK(same_parameters(*resumed.model(), *reference.model()));
  CHECK_FALSE(same_parameters(*resumed.model(), *saved.model()));  // it did step
}
