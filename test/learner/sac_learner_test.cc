// The SAC learner as the trainer runs it: one Adam over three parameter
// groups steps exactly as the paper's three separate Adams; a learner
// resumed from a checkpoint (weights, targets, temperature, optimizer) ends
// in the uninterrupted learner's state bit for bit; and the replay's rate
// limiter holds --replay-ratio whether the learner or the inserter is slower;
// stepping from the replay, with each actor step left to run beside the
// next sample, makes the updates whole updates make.
#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <thread>

#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>

#include "../util/wait_until.h"
#include "seedrl/env/env_step.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/learner/sac/sac_learner.h"
#include "seedrl/learner/sac/sac_losses.h"
#include "seedrl/model/agent_net.h"
#include "seedrl/model/squashed_gaussian.h"
#include "seedrl/trainer/sac_setup.h"

using namespace seedrl;

namespace {

EnvSpec box_spec() {
  EnvSpec spec;
  spec.name = "box";
  spec.observation.shape = {3};
  spec.action = ActionSpec::box({-2.0f, 0.0f}, {2.0f, 1.0f});
  return spec;
}

ModelConfig small_mlp() {
  ModelConfig mc;
  mc.hidden = {16, 16};
  return mc;
}

UnrollLayout transition_layout(const EnvSpec& spec) {
  TrainConfig c;
  c.r2d2.n_step = 1;
  return sac_sequence_layout(c, spec);
}

// One stored transition (2 entries) with random contents; entry 1 ends the
// episode (terminated) one time in four.
UnrollBatch transition(const EnvSpec& spec, at::Generator& g) {
  UnrollBatch b;
  b.obs = torch::randn({2, 1, 3}, g, torch::kFloat32);
  b.actions = torch::rand({2, 1, 2}, g, torch::kFloat32) * torch::tensor({4.0f, 1.0f}) + torch::tensor({-2.0f, 0.0f});
  b.policy = torch::zeros({2, 1, 1});
  b.rewards = torch::randn({2, 1}, g, torch::kFloat32);
  b.flags = torch::zeros({2, 1}, torch::kUInt8);
  if (torch::rand({1}, g).item<float>() < 0.25f) b.flags[1][0] = kTerminated;
  b.versions = torch::zeros({1}, torch::kInt64);
  return b;
}

r2d2::ReplayConfig uniform(std::int64_t capacity) {
  r2d2::ReplayConfig rc;
  rc.capacity = capacity;
  rc.priority_exponent = 0;
  rc.importance_exponent = 0;
  rc.min_fill = 1;
  rc.check_memory = false;
  return rc;
}

// `count` batches of 32 sampled from a replay filled with 64 random transitions.
std::vector<r2d2::ReplaySample> random_batches(r2d2::Replay& replay, const EnvSpec& spec, std::uint64_t seed,
                                               int count) {
  at::Generator g = at::make_generator<at::CPUGeneratorImpl>(seed);
  for (int i = 0; i < 64; ++i) REQUIRE(replay.insert(transition(spec, g), 0));
  std::vector<r2d2::ReplaySample> samples(count);
  for (auto& s : samples) REQUIRE(replay.sample(32, s));
  return samples;
}

std::vector<torch::Tensor> state_of(SacNet& net) {
  std::vector<torch::Tensor> out;
  for (const auto& p : net->parameters()) out.push_back(p.detach().clone());
  return out;
}

}  // namespace

TEST_CASE("SAC: one Adam of three groups steps as three separate Adams do", "[learner][sac]") {
  const EnvSpec spec = box_spec();
  torch::manual_seed(5);
  SacNet a(spec, small_mlp(), 0.5);
  SacNet b(spec, small_mlp(), 0.5);
  copy_parameters(*a, *b);
  sac::SacSettings settings;
  settings.target_entropy = -2;
  settings.learning_rate = 1e-2;
  settings.critic_threads = GENERATE(1, 2);
  sac::SacUpdater updater(a, settings);

  // The reference: the paper's three Adams, each stepping on its own loss.
  using torch::optim::Adam;
  using torch::optim::AdamOptions;
  Adam critic(b->critic_parameters(), AdamOptions(settings.learning_rate));
  Adam actor(b->actor->parameters(), AdamOptions(settings.learning_rate));
  Adam temperature(std::vector<torch::Tensor>{b->log_alpha}, AdamOptions(settings.learning_rate));
  at::Generator data = at::make_generator<at::CPUGeneratorImpl>(9);
  for (int step = 0; step < 5; ++step) {
    sac::TransitionBatch t;
    t.obs = torch::randn({32, 3}, data, torch::kFloat32);
    t.action = torch::rand({32, 2}, data, torch::kFloat32) * 2 - 1;
    t.reward = torch::randn({32}, data, torch::kFloat32);
    t.terminal = (torch::rand({32}, data, torch::kFloat32) < 0.2).to(torch::kFloat32);
    t.next_obs = torch::randn({32, 3}, data, torch::kFloat32);
    t.discount = torch::full({32}, 0.99f);
    at::Generator ga = at::make_generator<at::CPUGeneratorImpl>(100 + step);
    updater.update(t, ga);

    // The same update by hand, with the same noise stream.
    at::Generator gb = at::make_generator<at::CPUGeneratorImpl>(100 + step);
    const torch::Tensor alpha = b->log_alpha.exp().detach();
    const auto p = b->actor->forward(t.obs);
    const sac::SquashedSample fresh =
        sac::squashed_sample(p.mean, p.log_std, torch::randn(p.mean.sizes(), gb, torch::kFloat32));
    temperature.zero_grad();
    sac::temperature_loss(b->log_alpha, fresh.log_prob, settings.target_entropy).backward();
    temperature.step();
    torch::Tensor y;
    {
      torch::NoGradGuard no_grad;
      const auto pn = b->actor->forward(t.next_obs);
      const auto next = sac::squashed_sample(pn.mean, pn.log_std, torch::randn(pn.mean.sizes(), gb, torch::kFloat32));
      y = sac::critic_target(t.reward, t.terminal, t.discount, b->target_q1->forward(t.next_obs, next.action),
                             b->target_q2->forward(t.next_obs, next.action), next.log_prob, alpha);
    }
    critic.zero_grad();
    sac::critic_loss(b->q1->forward(t.obs, t.action), b->q2->forward(t.obs, t.action), y).backward();
    critic.step();
    actor.zero_grad();
    sac::actor_loss(fresh.log_prob, b->q1->forward(t.obs, fresh.action), b->q2->forward(t.obs, fresh.action), alpha)
        .backward();
    actor.step();  // the critics' gradients from this loss are never stepped on
    sac::polyak_update(b->critic_parameters(), b->target_parameters(), settings.tau);
  }
  const auto pa = a->named_parameters(), pb = b->named_parameters();
  for (const auto& item : pa) {
    INFO(item.key());
    CHECK(torch::allclose(item.value(), pb[item.key()], 1e-5, 1e-6));
  }
  // Each group moved: the update is not a no-op that trivially matches.
  SacNet fresh(spec, small_mlp(), 0.5);
  CHECK_FALSE(torch::allclose(a->log_alpha, fresh->log_alpha));
}

TEST_CASE("SAC: a learner resumed from its checkpoint ends where the uninterrupted one does", "[learner][sac]") {
  const EnvSpec spec = box_spec();
  const UnrollLayout layout = transition_layout(spec);
  r2d2::Replay replay(layout, uniform(64));
  const std::vector<r2d2::ReplaySample> samples = random_batches(replay, spec, 21, 8);

  LearnerConfig config;
  config.batch_size = 32;
  config.optimizer.learning_rate = 3e-3;
  SacConfig sc;
  ParamPublisher publisher;
  const torch::Device cpu(torch::kCPU);
  torch::manual_seed(1);
  sac::SacLearner whole(spec, small_mlp(), sc, config, 1, replay, publisher, cpu, 7);
  torch::manual_seed(2);  // another initialisation: the checkpoint must replace it all
  sac::SacLearner resumed(spec, small_mlp(), sc, config, 1, replay, publisher, cpu, 7);

  const std::string path = (std::filesystem::temp_directory_path() / "seedrl_sac_resume_test.pt").string();
  sac::SacLearnerStats stats;
  for (int i = 0; i < 4; ++i) whole.update(samples[i], stats);
  CheckpointCounters counters;
  counters.learner_steps = whole.steps();
  counters.learner_frames = whole.frames();
  save_checkpoint(path, *whole.model(), whole.optimizer(), counters, "{}");
  for (int i = 4; i < 8; ++i) whole.update(samples[i], stats);

  const LoadedCheckpoint loaded = load_checkpoint(path, *resumed.model(), &resumed.optimizer());
  resumed.set_counters(loaded.counters.learner_steps, loaded.counters.learner_frames);
  for (int i = 4; i < 8; ++i) resumed.update(samples[i], stats);
  std::filesystem::remove(path);

  CHECK(resumed.steps() == whole.steps());
  CHECK(resumed.frames() == whole.frames());
  const auto a = state_of(whole.model()), b = state_of(resumed.model());
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(torch::equal(a[i], b[i]));
  // Without the optimizer's state the same four updates end elsewhere.
  torch::manual_seed(2);
  sac::SacLearner weights_only(spec, small_mlp(), sc, config, 1, replay, publisher, cpu, 7);
  std::vector<torch::Tensor> saved;
  {
    sac::SacLearner again(spec, small_mlp(), sc, config, 1, replay, publisher, cpu, 7);
    torch::manual_seed(1);
    sac::SacLearner first(spec, small_mlp(), sc, config, 1, replay, publisher, cpu, 7);
    for (int i = 0; i < 4; ++i) first.update(samples[i], stats);
    copy_parameters(*first.model(), *weights_only.model());
  }
  weights_only.set_counters(4, 0);
  for (int i = 4; i < 8; ++i) weights_only.update(samples[i], stats);
  const auto c = state_of(weights_only.model());
  bool all_equal = true;
  for (std::size_t i = 0; i < a.size(); ++i) all_equal = all_equal && torch::equal(a[i], c[i]);
  CHECK_FALSE(all_equal);
}

TEST_CASE("SAC: a learner stepping from its replay, each actor step beside the next sample, makes whole updates",
          "[learner][sac][concurrency]") {
  const EnvSpec spec = box_spec();
  const UnrollLayout layout = transition_layout(spec);
  LearnerConfig config;
  config.batch_size = 32;
  config.optimizer.learning_rate = 3e-3;
  for (const int critic_threads : {2, 1}) {
    DYNAMIC_SECTION("critic threads " << critic_threads) {
      SacConfig sc;
      sc.critic_threads = critic_threads;
      r2d2::Replay stepped_replay(layout, uniform(64)), whole_replay(layout, uniform(64));
      random_batches(stepped_replay, spec, 5, 0);
      random_batches(whole_replay, spec, 5, 0);
      ParamPublisher stepped_publisher, whole_publisher;
      const torch::Device cpu(torch::kCPU);
      torch::manual_seed(3);
      sac::SacLearner stepped(spec, small_mlp(), sc, config, 1, stepped_replay, stepped_publisher, cpu, 9);
      torch::manual_seed(3);
      sac::SacLearner whole(spec, small_mlp(), sc, config, 1, whole_replay, whole_publisher, cpu, 9);
      sac::SacLearnerStats a, b;
      r2d2::ReplaySample sample;
      for (int i = 0; i < 12; ++i) {
        REQUIRE(stepped.step(a));
        REQUIRE(whole_replay.sample(32, sample));
        whole.update(sample, b);
        // The same losses, from the same sample, critics and actor.
        CHECK(a.update.critic_loss == b.update.critic_loss);
        CHECK(a.update.actor_loss == b.update.actor_loss);
        CHECK(a.update.alpha == b.update.alpha);
      }
      // The last update's actor step is still to run; finish() runs it and
      // publishes its actor.
      CHECK(stepped_publisher.version() == 11);
      stepped.finish();
      CHECK(stepped_publisher.version() == 12);
      CHECK(whole_publisher.version() == 12);
      CHECK(stepped.steps() == whole.steps());
      const auto x = state_of(stepped.model()), y = state_of(whole.model());
      REQUIRE(x.size() == y.size());
      for (std::size_t i = 0; i < x.size(); ++i) CHECK(torch::equal(x[i], y[i]));
      // What inference receives is the stepped actor.
      SacActor replica(spec, small_mlp());
      REQUIRE(stepped_publisher.sync(*replica, -1) == 12);
      const auto published = replica->parameters(), actor = stepped.model()->actor->parameters();
      REQUIRE(published.size() == actor.size());
      for (std::size_t i = 0; i < actor.size(); ++i) CHECK(torch::equal(published[i], actor[i]));
    }
  }
}

TEST_CASE("SAC: the rate limiter holds --replay-ratio with a slow learner and with a slow inserter",
          "[learner][sac][concurrency]") {
  const EnvSpec spec = box_spec();
  TrainConfig tc;
  tc.algo = "sac";
  tc.learner.batch_size = 16;
  tc.r2d2.n_step = 1;
  tc.r2d2.replay_capacity = 4096;
  tc.r2d2.min_replay = 32;
  tc.r2d2.replay_ratio = 16;  // one update per inserted transition
  r2d2::ReplayConfig rc = sac_replay_config(tc);
  rc.check_memory = false;
  CHECK(rc.priority_exponent == 0);
  CHECK(rc.importance_exponent == 0);
  const double ratio = rc.replay_ratio, tolerance = static_cast<double>(rc.tolerance);
  const int inserts = 400;

  for (const bool slow_learner : {true, false}) {
    DYNAMIC_SECTION((slow_learner ? "a learner slower than the inserter" : "an inserter slower than the learner")) {
      r2d2::Replay replay(transition_layout(spec), rc);
      LearnerConfig config;
      config.batch_size = 16;
      ParamPublisher publisher;
      sac::SacLearner learner(spec, small_mlp(), SacConfig{}, config, 1, replay, publisher, torch::kCPU, 3);
      std::atomic<int> ahead_violations{0}, behind_violations{0};
      std::thread learner_thread([&] {
        sac::SacLearnerStats stats;
        while (learner.step(stats)) {
          // The learner never samples past its share of what was inserted.
          const double owed = ratio * static_cast<double>(static_cast<std::int64_t>(replay.inserted()) - 32);
          if (static_cast<double>(replay.sampled()) > owed + 16) ++ahead_violations;
          if (slow_learner) torch::randn({256, 256}).matmul(torch::randn({256, 256}));  // the slow learner's work
        }
      });
      at::Generator g = at::make_generator<at::CPUGeneratorImpl>(4);
      for (int i = 0; i < inserts; ++i) {
        REQUIRE(replay.insert(transition(spec, g), 0));
        // Inserts never run more than the tolerance ahead of the learner.
        const double owed = ratio * static_cast<double>(static_cast<std::int64_t>(replay.inserted()) - 32);
        if (owed - static_cast<double>(replay.sampled()) > tolerance + ratio) ++behind_violations;
        if (!slow_learner) torch::randn({256, 256}).matmul(torch::randn({256, 256}));  // the slow inserter's work
      }
      const double due = ratio * (inserts - 32);
      CHECK(seedrl::test::wait_until([&] { return static_cast<double>(replay.sampled()) + 16 > due; }));
      replay.close();
      learner_thread.join();
      CHECK(ahead_violations.load() == 0);
      CHECK(behind_violations.load() == 0);
      CHECK(static_cast<double>(replay.sampled()) <= due + 16);
      CHECK(learner.steps() == static_cast<std::int64_t>(replay.sampled() / 16));
    }
  }
}

TEST_CASE("SAC: the learner trains on rewards shaped by --reward-clip and --reward-scale, with --adam-eps",
          "[learner][sac]") {
  const EnvSpec spec = box_spec();
  const UnrollLayout layout = transition_layout(spec);
  r2d2::Replay replay(layout, uniform(64));
  const std::vector<r2d2::ReplaySample> samples = random_batches(replay, spec, 5, 3);

  LearnerConfig shaped;
  shaped.batch_size = 32;
  shaped.optimizer.learning_rate = 3e-3;
  shaped.optimizer.adam_eps = 1e-4;
  shaped.loss.reward_clip = 0.3;
  shaped.loss.reward_scale = 2.5;
  LearnerConfig plain = shaped;
  plain.loss.reward_clip = 0;
  plain.loss.reward_scale = 1;
  SacConfig sc;
  ParamPublisher publisher;
  const torch::Device cpu(torch::kCPU);
  torch::manual_seed(3);
  sac::SacLearner a(spec, small_mlp(), sc, shaped, 1, replay, publisher, cpu, 7);
  torch::manual_seed(3);
  sac::SacLearner b(spec, small_mlp(), sc, plain, 1, replay, publisher, cpu, 7);
  for (const auto& group : a.optimizer().param_groups())
    CHECK(static_cast<const torch::optim::AdamOptions&>(group.options()).eps() == 1e-4);

  // The same updates, one learner shaping the rewards itself, the other given
  // them shaped: clamped to [-0.3, 0.3], then times 2.5.
  sac::SacLearnerStats stats;
  bool any_clipped = false;
  for (const auto& s : samples) {
    a.update(s, stats);
    r2d2::ReplaySample given = s;
    given.batch.rewards = s.batch.rewards.clamp(-0.3, 0.3) * 2.5;
    any_clipped = any_clipped || s.batch.rewards.abs().gt(0.3).any().item<bool>();
    b.update(given, stats);
  }
  REQUIRE(any_clipped);
  const auto pa = state_of(a.model()), pb = state_of(b.model());
  REQUIRE(pa.size() == pb.size());
  for (std::size_t i = 0; i < pa.size(); ++i) CHECK(torch::allclose(pa[i], pb[i], 1e-5, 1e-6));
  // Given the rewards unshaped, the plain learner ends elsewhere: the shaping is not a no-op.
  torch::manual_seed(3);
  sac::SacLearner c(spec, small_mlp(), sc, plain, 1, replay, publisher, cpu, 7);
  for (const auto& s : samples) c.update(s, stats);
  const auto pc = state_of(c.model());
  bool all_close = true;
  for (std::size_t i = 0; i < pa.size(); ++i) all_close = all_close && torch::allclose(pa[i], pc[i], 1e-5, 1e-6);
  CHECK_FALSE(all_close);
}
