// Thread CPU masks: a scoped restriction holds for the thread and the
// threads it creates, and is undone; replica threads keep to their CPUs.
#include <catch2/catch.hpp>

#include <thread>
#include <vector>

#include "seedrl/learner/replica_threads.h"
#include "seedrl/util/cpu_affinity.h"

using namespace seedrl;

TEST_CASE("a scoped CPU restriction holds for new threads and is undone", "[util][affinity]") {
  const std::vector<int> all = thread_cpus();
  REQUIRE_FALSE(all.empty());
  if (all.size() < 2)
    SUCCEED("one CPU: nothing to restrict");
  else {
    {
      ScopedThreadCpus scoped({all.back()});
      CHECK(thread_cpus() == std::vector<int>{all.back()});
      std::vector<int> child;
      std::thread([&] { child = thread_cpus(); }).join();
      CHECK(child == std::vector<int>{all.back()});  // inherited at creation
    }
    CHECK(thread_cpus() == all);
  }
  // Nothing to set: refused, mask unchanged.
  CHECK_FALSE(set_thread_cpus({}));
  CHECK_FALSE(set_thread_cpus({-1}));
  CHECK(thread_cpus() == all);
  {
    ScopedThreadCpus none({});
    CHECK(thread_cpus() == all);
  }
}

TEST_CASE("replica threads keep to the CPUs given per rank", "[util][affinity][learner]") {
  const std::vector<int> all = thread_cpus();
  if (all.size() < 2) {
    SUCCEED("one CPU: nothing to place");
    return;
  }
  const int a = all.front(), b = all.back();
  ReplicaThreads threads(3, {{a}, {b}, {a}});
  std::vector<std::vector<int>> seen(3);
  for (int round = 0; round < 3; ++round) threads.run([&](int rank) { seen[rank] = thread_cpus(); });
  CHECK(seen[0] == all);  // rank 0 is the caller, which places itself
  CHECK(seen[1] == std::vector<int>{b});
  CHECK(seen[2] == std::vector<int>{a});
}
