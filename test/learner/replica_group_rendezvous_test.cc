// Replica groups that span processes meet through a c10d TCPStore, as
// torchrun's MASTER_ADDR / MASTER_PORT / WORLD_SIZE describe: here two
// groups built at once on their own threads stand for two processes, one with
// global rank 0 (it serves the store) and one with ranks 1 and 2. Their
// collectives must cover all three ranks.
#include <catch2/catch.hpp>

#include <signal.h>

#include <memory>
#include <thread>

#include <torch/torch.h>

#include "../util/free_port.h"
#include "seedrl/learner/replica_group.h"

using namespace seedrl;
using seedrl::test::free_port;

TEST_CASE("replica groups of two processes meet at a TCP store and reduce over all their ranks",
          "[learner][distributed]") {
  if (!ReplicaGroup::supports(torch::kCPU)) return;  // a build without Gloo
  const int port = free_port();
  const std::chrono::milliseconds timeout(60000);
  auto rendezvous = [&](int first_rank) {
    Rendezvous r;
    r.master_addr = "127.0.0.1";
    r.master_port = port;
    r.world_size = 3;
    r.first_rank = first_rank;
    r.gloo_host = "127.0.0.1";
    return r;
  };
  ::signal(SIGPIPE, SIG_DFL);
  std::unique_ptr<ReplicaGroup> a, b;
  std::thread pa(
      [&] { a = std::make_unique<ReplicaGroup>(std::vector<torch::Device>{torch::kCPU}, timeout, rendezvous(0)); });
  std::thread pb([&] {
    b = std::make_unique<ReplicaGroup>(std::vector<torch::Device>{torch::kCPU, torch::kCPU}, timeout, rendezvous(1));
  });
  pa.join();
  pb.join();
  REQUIRE(a);
  REQUIRE(b);
  // A peer process that dies must not end this one by SIGPIPE on a write to
  // its socket: the group reports the lost rank instead.
  struct sigaction pipe_action {};
  REQUIRE(::sigaction(SIGPIPE, nullptr, &pipe_action) == 0);
  CHECK(pipe_action.sa_handler == SIG_IGN);
  CHECK(a->size() == 1);
  CHECK(b->size() == 2);
  CHECK(a->world_size() == 3);
  CHECK(b->world_size() == 3);

  // Global rank g contributes g + 1 everywhere: the sum is 6 on every rank.
  std::vector<torch::Tensor> t{torch::full({4}, 1.f), torch::full({4}, 2.f), torch::full({4}, 3.f)};
  std::vector<torch::Tensor> gathered(3);
  std::thread r0([&] {
    a->allreduce_sum(0, t[0])();
    a->broadcast(0, t[0], 0);
  });
  std::thread r1([&] {
    b->allreduce_sum(0, t[1])();
    b->broadcast(0, t[1], 0);
  });
  std::thread r2([&] {
    b->allreduce_sum(1, t[2])();
    t[2].fill_(-1.f);  // broadcast must overwrite it with rank 0's sum
    b->broadcast(1, t[2], 0);
  });
  r0.join();
  r1.join();
  r2.join();
  for (const auto& x : t) CHECK(torch::equal(x, torch::full({4}, 6.f)));

  std::vector<std::vector<torch::Tensor>> all(3);
  std::thread g0([&] { all[0] = a->allgather(0, torch::full({1}, 10.f)); });
  std::thread g1([&] { all[1] = b->allgather(0, torch::full({1}, 11.f)); });
  std::thread g2([&] { all[2] = b->allgather(1, torch::full({1}, 12.f)); });
  g0.join();
  g1.join();
  g2.join();
  for (const auto& got : all) {
    REQUIRE(got.size() == 3);
    for (int g = 0; g < 3; ++g) CHECK(got[g].item<float>() == 10.f + g);
  }
}

TEST_CASE("a rendezvous whose ranks do not fit its world is refused", "[learner][distributed]") {
  if (!ReplicaGroup::supports(torch::kCPU)) return;  // a build without Gloo refuses earlier
  Rendezvous r;
  r.world_size = 2;
  r.first_rank = 1;
  CHECK_THROWS_WITH(ReplicaGroup({torch::kCPU, torch::kCPU}, std::chrono::milliseconds(1000), r),
                    Catch::Contains("does not fit a world of 2"));
  r.first_rank = 0;
  r.master_port = 70000;
  CHECK_THROWS_WITH(ReplicaGroup({torch::kCPU}, std::chrono::milliseconds(1000), r), Catch::Contains("not a TCP port"));
}
