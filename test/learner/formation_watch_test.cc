// A rank that cannot join a group of learner processes while it forms must
// not leave the others blocked inside Gloo's connect: its reason reaches
// every other process through the store, which ends them with it. Two
// groups built at once on their own threads stand for two processes; one
// names a network interface that does not exist, so its Gloo device fails.
#include <catch2/catch.hpp>

#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <torch/torch.h>

#include "../util/free_port.h"
#include "seedrl/learner/replica_group.h"

using namespace seedrl;
using seedrl::test::free_port;

namespace {

struct Process {
  std::mutex mutex;
  std::string ended;  // the first line its on_formation_failure received
  bool threw = false;
  void build(Rendezvous r) {
    r.on_formation_failure = [this](const std::string& line) {
      // The first line only: production's exits there, this one returns and
      // the rank's own Gloo fails later, reporting once more.
      std::lock_guard<std::mutex> lock(mutex);
      if (ended.empty()) ended = line;
    };
    try {
      ReplicaGroup group({torch::kCPU}, std::chrono::milliseconds(10000), r);
    } catch (const std::exception&) {
      threw = true;
    }
  }
};

}  // namespace

TEST_CASE("a rank that cannot join ends the other processes of the forming group with its reason",
          "[learner][distributed]") {
  if (!ReplicaGroup::supports(torch::kCPU)) return;  // a build without Gloo
  const int failing = GENERATE(0, 1);                // rank 0 also serves the store
  const int port = free_port();
  const std::string bad = "seedrl-none0";
  auto rendezvous = [&](int rank) {
    Rendezvous r;
    r.master_addr = "127.0.0.1";
    r.master_port = port;
    r.world_size = 2;
    r.first_rank = rank;
    if (rank == failing)
      r.gloo_interface = bad;
    else
      r.gloo_host = "127.0.0.1";
    return r;
  };
  Process p[2];
  std::thread t0([&] { p[0].build(rendezvous(0)); });
  std::thread t1([&] { p[1].build(rendezvous(1)); });
  t0.join();
  t1.join();
  const int other = 1 - failing;
  INFO("failing rank " << failing << ": '" << p[failing].ended << "'; other: '" << p[other].ended << "'");
  CHECK(p[failing].threw);
  CHECK(p[other].threw);  // its Gloo gave up too, later: in production it had ended first
  const std::string at = "rank " + std::to_string(failing) +
                         " could not meet the other learner processes at 127.0.0.1:" + std::to_string(port) +
                         " within 10 s";
  CHECK(p[failing].ended.rfind("learner processes: " + at, 0) == 0);
  CHECK(p[failing].ended.find(bad) != std::string::npos);
  // The other process got the failing rank's own reason, not a timeout and
  // not "the store went away" (rank 0 waited until it was read).
  CHECK(p[other].ended.rfind(
            "learner processes: rank " + std::to_string(other) + " stops: rank " + std::to_string(failing) + " (on ",
            0) == 0);
  CHECK(p[other].ended.find("could not join the group: ") != std::string::npos);
  CHECK(p[other].ended.find(bad) != std::string::npos);
}
