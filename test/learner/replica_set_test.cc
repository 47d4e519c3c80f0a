// The replica set both data-parallel learners stand on: two Gloo replicas on
// CPU, each stepping on its own shard of a batch, must hold bit-identical
// weights afterwards and the weights a plain optimizer reaches on the whole
// batch; companion nets and the optimizer state follow replica 0 through a
// load; a drifting replica and a failing rank are errors, never hangs.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>

#include <torch/torch.h>

#include "parameter_difference.h"
#include "seedrl/learner/batch_shards.h"
#include "seedrl/learner/replica_set.h"
#include "seedrl/learner/vtrace_learner.h"

using namespace seedrl;
using seedrl::test::max_relative_difference;

namespace {

using Net = torch::nn::Sequential;

// The same small network every call, in double precision: the two-replica
// sum of shard gradients and the whole batch's gradient then round alike far
// below the tolerance, even where an adaptive optimizer divides by a tiny
// gradient.
Net make_net() {
  torch::manual_seed(17);
  Net net(torch::nn::Linear(6, 24), torch::nn::Tanh(), torch::nn::Linear(24, 3));
  net->to(torch::kFloat64);
  return net;
}

struct Batch {
  torch::Tensor x, y;
};
Batch batch(int B, int seed) {
  torch::manual_seed(seed);
  auto opts = torch::TensorOptions().dtype(torch::kFloat64);
  return {torch::randn({B, 6}, opts), torch::randn({B, 3}, opts)};
}

// Squared error summed over rows [start, start + count), divided by the whole
// batch's row count: the ranks' losses (and gradients) add up to the mean.
torch::Tensor shard_loss(Net& net, const Batch& b, ShardRange range) {
  auto x = b.x.narrow(0, range.start, range.count), y = b.y.narrow(0, range.start, range.count);
  return (net->forward(x) - y).pow(2).sum() / static_cast<double>(b.x.size(0));
}

OptimizerConfig clipped_adam() {
  OptimizerConfig c;
  c.name = "adam";
  c.learning_rate = 1e-2;
  c.max_grad_norm = 0.5;  // clips: the norm must be the global one
  return c;
}

// One update of every replica on its shard of `b`; returns rank 0's grad norm.
double step_on_shards(ReplicaSet<Net>& set, std::int64_t step, const Batch& b, const OptimizerConfig& config) {
  const std::int64_t B = b.x.size(0);
  std::vector<double> norms(static_cast<std::size_t>(set.size()));
  set.run_update(step, [&](int rank) {
    set.optimizer(rank).zero_grad();
    set.prepare_gradients(rank);
    shard_loss(set.net(rank), b, shard_range(B, rank, set.size())).backward();
    set.reduce_gradients(rank);
    norms[rank] = set.clip_and_step(rank, config, config.learning_rate).item<double>();
  });
  return norms[0];
}

}  // namespace

TEST_CASE("two Gloo replicas stepping on their shards match one optimizer on the whole batch", "[learner][replica]") {
  const OptimizerConfig config = clipped_adam();
  DataParallelOptions options;
  options.checksum_every = 1;
  options.bucket_bytes = 512;  // several buckets for this small net
  SECTION("LibTorch's clip and step") {}
  SECTION("stepping on the device") { options.device_step = DataParallelOptions::DeviceStep::kAlways; }

  // The reference: LibTorch's own optimizer, no replica set.
  Net reference = make_net();
  auto optimizer = make_optimizer(config, reference->parameters());
  ReplicaSet<Net> one(make_net, 1, {torch::kCPU}, config, options);
  int made = 0;
  ReplicaSet<Net> two(
      [&made] {
        Net n = make_net();
        torch::NoGradGuard no_grad;
        if (made++ > 0)
          for (auto& p : n->parameters()) p.add_(1.0);  // replica 1 must receive replica 0's weights
        return n;
      },
      1, {torch::kCPU, torch::kCPU}, config, options);
  REQUIRE(made == 2);
  REQUIRE(two.grouped());
  REQUIRE_FALSE(one.grouped());

  const int K = 5;
  for (int k = 1; k <= K; ++k) {
    const Batch b = batch(7, 100 + k);  // shards of 3 and 4 rows
    optimizer->zero_grad();
    shard_loss(reference, b, {0, 7}).backward();
    const double norm = torch::nn::utils::clip_grad_norm_(reference->parameters(), config.max_grad_norm);
    optimizer->step();
    CHECK(step_on_shards(one, k, b, config) == Approx(norm).epsilon(1e-6));
    CHECK(step_on_shards(two, k, b, config) == Approx(norm).epsilon(1e-6));
  }
  CHECK(max_relative_difference(*one.net(0), *reference) <= 1e-6);
  CHECK(max_relative_difference(*two.net(0), *reference) <= 1e-6);
  // Training moved the weights far beyond that tolerance.
  CHECK(max_relative_difference(*make_net(), *reference) > 1e-2);
  // The replicas hold bit-identical weights.
  auto p0 = two.net(0)->parameters(), p1 = two.net(1)->parameters();
  for (std::size_t i = 0; i < p0.size(); ++i) CHECK(torch::equal(p0[i], p1[i]));
  REQUIRE_NOTHROW(two.verify(K));
}

TEST_CASE("a replica set's companion nets and optimizer state follow replica 0 through a load", "[learner][replica]") {
  const OptimizerConfig config = clipped_adam();
  DataParallelOptions options;
  options.checksum_every = 0;
  ReplicaSet<Net> set(make_net, 2, {torch::kCPU, torch::kCPU}, config, options);
  // Companions: not trained, no gradients.
  CHECK(set.net(1, 0)->is_training());
  CHECK_FALSE(set.net(1, 1)->is_training());
  for (auto& p : set.net(1, 1)->parameters()) CHECK_FALSE(p.requires_grad());
  step_on_shards(set, 1, batch(6, 1), config);
  {
    torch::NoGradGuard no_grad;  // as if a checkpoint was loaded into replica 0
    for (auto& p : set.net(0, 0)->parameters()) p.mul_(0.5);
    for (auto& p : set.net(0, 1)->parameters()) p.mul_(0.25);
    auto& state = set.optimizer(0).state();
    for (auto& [key, s] : state) static_cast<torch::optim::AdamParamState&>(*s).exp_avg().mul_(3.0);
  }
  set.sync_from_first(1);
  for (int which : {0, 1}) {
    auto a = set.net(0, which)->parameters(), b = set.net(1, which)->parameters();
    for (std::size_t i = 0; i < a.size(); ++i) CHECK(torch::equal(a[i], b[i]));
  }
  // The next update starts from the loaded optimizer state on both replicas
  // (else their Adam moments, 3x apart, would step them apart).
  step_on_shards(set, 2, batch(6, 2), config);
  REQUIRE_NOTHROW(set.verify(2));
}

TEST_CASE("a drifting replica and a failing rank stop a replica set with an error and no hang", "[learner][replica]") {
  const OptimizerConfig config = clipped_adam();
  DataParallelOptions options;
  options.checksum_every = 2;
  options.timeout = std::chrono::seconds(60);
  ReplicaSet<Net> set(make_net, 1, {torch::kCPU, torch::kCPU}, config, options);
  step_on_shards(set, 1, batch(4, 1), config);
  {
    torch::NoGradGuard no_grad;
    set.net(1)->parameters().back().view(-1)[0] += 1e-9;
  }
  CHECK_THROWS_WITH(set.verify(1), Catch::Contains("diverged after 1 updates") && Catch::Contains("replica 1"));
  // The periodic check (update 2) catches it on every rank.
  CHECK_THROWS_WITH(step_on_shards(set, 2, batch(4, 2), config), Catch::Contains("diverged after 2 updates"));
  // One rank's error reaches the caller; the set stays usable.
  std::atomic<int> ran{0};
  auto failing = [&ran](int rank) {
    ++ran;
    if (rank == 1) throw std::runtime_error("rank 1 failed");
  };
  CHECK_THROWS_WITH(set.run(failing), "rank 1 failed");
  CHECK(ran == 2);
  set.sync_from_first(2);
  REQUIRE_NOTHROW(set.verify(2));
}
