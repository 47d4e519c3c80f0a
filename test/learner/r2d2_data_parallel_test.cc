// R2D2's data-parallel learner: two Gloo replicas on CPU, each training on
// half of every sampled batch, must end up where one learner trained on the
// whole samples ends up (weights, target network, loss and, in batch order,
// the priorities that go back to the replay); a drifting replica is caught;
// a checkpoint loaded into replica 0 reaches the others.
#include <catch2/catch.hpp>

#include <random>

#include <torch/cuda.h>
#include <torch/torch.h>

#include "parameter_difference.h"
#include "seedrl/env/env_step.h"
#include "seedrl/learner/r2d2/r2d2_learner.h"

using namespace seedrl;
using seedrl::test::max_relative_difference;
using namespace seedrl::r2d2;

namespace {

constexpr int kBurnIn = 3, kTrained = 6;

struct R2d2ReplicaFixture {
  EnvSpec spec;
  ModelConfig model;
  UnrollLayout layout;
  std::unique_ptr<Replay> replay;  // unused by update(); the learners need one
  ParamPublisher publisher;
  QNet init{nullptr};

  R2d2ReplicaFixture() {
    spec.name = "synthetic";
    spec.observation.shape = {4};
    spec.action.num_actions = 3;
    model.hidden = {16};
    model.lstm = true;
    model.lstm_size = 8;
    layout.observation = spec.observation;
    layout.policy_size = 1 + spec.action.num_actions;
    layout.core_size = model.lstm_size;
    layout.length = kBurnIn + kTrained + 1;
    ReplayConfig rc;
    rc.capacity = 4;
    rc.check_memory = false;
    replay = std::make_unique<Replay>(layout, rc);
    torch::manual_seed(21);
    init = QNet(spec, model);
  }
  // The settings both equality tests train with: 3-step targets, a target
  // copy every 2 updates.
  R2D2Config r2d2_config() const {
    R2D2Config rc;
    rc.burn_in = kBurnIn;
    rc.n_step = 3;
    rc.target_update_period = 2;
    return rc;
  }
  LearnerConfig learner_config(int batch) const {
    LearnerConfig lc;
    lc.batch_size = batch;
    lc.optimizer.learning_rate = 1e-3;
    lc.loss.discount = 0.9;
    return lc;
  }
  QNet clone() const {
    QNet m(spec, model);
    copy_parameters(*init, *m);
    return m;
  }
  // A deterministic sample of B sequences with episode ends inside and
  // importance weights in (0, 1].
  ReplaySample sample(int B, std::uint32_t seed) const {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    const int L = layout.length;
    ReplaySample s;
    UnrollBatch& b = s.batch;
    b.obs = torch::empty({L, B, 4});
    b.actions = torch::empty({L, B, 1});
    b.policy = torch::empty({L, B, layout.policy_size});
    b.rewards = torch::empty({L, B});
    b.flags = torch::zeros({L, B}, torch::kUInt8);
    b.core_h = torch::empty({B, model.lstm_size});
    b.core_c = torch::empty({B, model.lstm_size});
    b.versions = torch::zeros({B}, torch::kInt64);
    s.weights = torch::empty({B});
    for (int j = 0; j < B; ++j) {
      for (int t = 0; t < L; ++t) {
        for (int k = 0; k < 4; ++k) b.obs[t][j][k] = u(gen);
        b.actions[t][j][0] = static_cast<float>(gen() % 3);
        b.policy[t][j][0] = t == 0 ? -1.f : b.actions[t - 1][j][0].item<float>();
        for (int k = 1; k < layout.policy_size; ++k) b.policy[t][j][k] = u(gen);
        b.rewards[t][j] = u(gen) + 0.5f;
      }
      for (int k = 0; k < model.lstm_size; ++k) {
        b.core_h[j][k] = 0.3f * u(gen);
        b.core_c[j][k] = 0.3f * u(gen);
      }
      const int end = 4 + j % 5;  // terminated or truncated inside the window
      b.flags[end][j] = j % 2 ? kTerminated : kTruncated;
      if (end + 1 < L) b.flags[end + 1][j] = kFirst;
      s.weights[j] = 0.2f + 0.8f * (u(gen) + 1.f) / 2.f;
    }
    return s;
  }
};

}  // namespace

TEST_CASE("two Gloo replicas of the R2D2 learner train exactly like one learner on the whole sample",
          "[r2d2][learner][data_parallel]") {
  R2d2ReplicaFixture f;
  const R2D2Config rc = f.r2d2_config();
  LearnerConfig lc = f.learner_config(7);  // split 3 + 4: uneven shards
  SECTION("adam") { lc.optimizer.max_grad_norm = 0; }
  SECTION("adam with gradient clipping") { lc.optimizer.max_grad_norm = 0.05; }  // the norm must be the global one
  // The replicas clip and step as a GPU's do, the single learner with LibTorch.
  bool device_step = false;
  SECTION("adam with gradient clipping, stepping on the device") {
    lc.optimizer.max_grad_norm = 0.05;
    device_step = true;
  }
  DataParallelOptions options;
  if (device_step) options.device_step = DataParallelOptions::DeviceStep::kAlways;
  options.checksum_every = 1;
  options.bucket_bytes = 1024;  // several buckets for this small net
  R2D2Learner single([&] { return f.clone(); }, rc, lc, *f.replay, f.publisher, {torch::kCPU});
  R2D2Learner dp([&] { return f.clone(); }, rc, lc, *f.replay, f.publisher, {torch::kCPU, torch::kCPU}, options);
  REQUIRE(dp.replicas() == 2);
  const int K = 5;
  for (int k = 0; k < K; ++k) {
    const ReplaySample sample = f.sample(lc.batch_size, 300 + k);
    R2D2Stats s1, s2;
    const std::vector<double> p1 = single.update(sample, s1);
    const std::vector<double> p2 = dp.update(sample, s2);
    // Every replica's priorities, in batch order.
    REQUIRE(p2.size() == p1.size());
    for (std::size_t j = 0; j < p1.size(); ++j) CHECK(p2[j] == Approx(p1[j]).epsilon(1e-4));
    CHECK(s2.loss == Approx(s1.loss).epsilon(1e-4));
    CHECK(s2.td_error == Approx(s1.td_error).epsilon(1e-4));
    CHECK(s2.q_mean == Approx(s1.q_mean).epsilon(1e-4));
    CHECK(s2.grad_norm == Approx(s1.grad_norm).epsilon(1e-4));
  }
  CHECK(dp.steps() == K);
  CHECK(dp.frames() == single.frames());
  CHECK(dp.frames() == K * kTrained * lc.batch_size);
  CHECK(max_relative_difference(*dp.model(), *single.model()) <= 1e-5);
  CHECK(max_relative_difference(*dp.target(), *single.target()) <= 1e-5);  // copied at steps 2 and 4
  // Training moved the weights far beyond that tolerance.
  CHECK(max_relative_difference(*single.model(), *f.init) > 1e-3);
  // The replicas hold bit-identical weights.
  auto p0 = dp.replica_model(0)->parameters(), p1 = dp.replica_model(1)->parameters();
  for (std::size_t i = 0; i < p0.size(); ++i) CHECK(torch::equal(p0[i], p1[i]));
}

// Hidden: bench/cuda/run-on-gpu.sh runs it on a GPU machine. Replicas on
// every visible GPU (NCCL with two or more) against one CPU learner; CPU and
// GPU kernels round differently, hence the looser bounds.
TEST_CASE("the R2D2 learner on GPUs trains like one CPU learner", "[.gpu][r2d2][learner][data_parallel]") {
  REQUIRE(torch::cuda::is_available());
  R2d2ReplicaFixture f;
  const R2D2Config rc = f.r2d2_config();
  const LearnerConfig lc = f.learner_config(8);
  std::vector<torch::Device> gpus;
  for (int i = 0; i < std::min<int>(2, static_cast<int>(torch::cuda::device_count())); ++i)
    gpus.emplace_back(torch::kCUDA, static_cast<c10::DeviceIndex>(i));
  DataParallelOptions options;
  options.checksum_every = 1;
  R2D2Learner single([&] { return f.clone(); }, rc, lc, *f.replay, f.publisher, {torch::kCPU});
  R2D2Learner dp([&] { return f.clone(); }, rc, lc, *f.replay, f.publisher, gpus, options);
  INFO(dp.replicas() << " GPU replica(s)");
  for (int k = 0; k < 3; ++k) {
    const ReplaySample sample = f.sample(lc.batch_size, 700 + k);
    R2D2Stats s1, s2;
    const std::vector<double> p1 = single.update(sample, s1), p2 = dp.update(sample, s2);
    REQUIRE(p2.size() == p1.size());
    for (std::size_t j = 0; j < p1.size(); ++j) CHECK(p2[j] == Approx(p1[j]).epsilon(1e-3));
  }
  QNet on_cpu = f.clone();
  copy_parameters(*dp.model(), *on_cpu);
  CHECK(max_relative_difference(*on_cpu, *single.model()) <= 1e-3);
}

TEST_CASE("a drifting R2D2 replica stops the run and a loaded checkpoint reaches every replica",
          "[r2d2][learner][data_parallel]") {
  R2d2ReplicaFixture f;
  R2D2Config rc;
  rc.burn_in = kBurnIn;
  LearnerConfig lc;
  lc.batch_size = 4;
  DataParallelOptions options;
  options.checksum_every = 2;
  R2D2Learner dp([&] { return f.clone(); }, rc, lc, *f.replay, f.publisher, {torch::kCPU, torch::kCPU}, options);
  R2D2Stats s;
  dp.update(f.sample(4, 1), s);
  REQUIRE_NOTHROW(dp.verify_replicas());
  {
    torch::NoGradGuard no_grad;
    dp.replica_model(1)->parameters().back().view(-1)[0] += 1e-4f;
  }
  CHECK_THROWS_WITH(dp.verify_replicas(), Catch::Contains("diverged") && Catch::Contains("replica 1"));
  // The periodic check (update 2) catches it too, on every rank: no hang.
  CHECK_THROWS_WITH(dp.update(f.sample(4, 2), s), Catch::Contains("diverged after 2 updates"));

  {
    torch::NoGradGuard no_grad;  // as if a checkpoint was loaded into replica 0
    for (auto& p : dp.model()->parameters()) p.mul_(0.5);
    for (auto& p : dp.target()->parameters()) p.mul_(0.25);
  }
  dp.sync_replicas();
  for (QNet* net : {&dp.replica_model(1), &dp.replica_target(1)}) {
    QNet& replica0 = net == &dp.replica_model(1) ? dp.model() : dp.target();
    auto a = replica0->parameters(), b = (*net)->parameters();
    for (std::size_t i = 0; i < a.size(); ++i) CHECK(torch::equal(a[i], b[i]));
  }
  CHECK(max_relative_difference(*dp.target(), *f.init) > 0.5);  // the loaded target, not the initial one
  REQUIRE_NOTHROW(dp.update(f.sample(4, 3), s));
  REQUIRE_NOTHROW(dp.verify_replicas());
}
