// ReplicaThreads::run: every rank runs each job exactly once, and run()
// returns only after all of them are done and their writes are visible,
// whether the waiting threads caught the hand-off while spinning or asleep;
// a rank's exception reaches the caller and the threads keep working.
#include <catch2/catch.hpp>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "seedrl/learner/replica_threads.h"

using namespace seedrl;

TEST_CASE("replica threads run each job once on every rank and return when all are done", "[learner][replica]") {
  constexpr int kRanks = 4, kRuns = 3000;
  ReplicaThreads threads(kRanks);
  REQUIRE(threads.size() == kRanks);
  std::vector<long> written(kRanks, -1);  // plain writes: run() must publish them
  std::vector<int> runs(kRanks, 0);
  for (int k = 0; k < kRuns; ++k) {
    threads.run([&](int rank) {
      // Some runs keep a rank busy past the others' spin, so that they
      // fall asleep and the wake-up path runs as well as the spinning one.
      if (k % 97 == rank) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      written[rank] = static_cast<long>(k) * kRanks + rank;
      ++runs[rank];
    });
    long sum = 0;
    for (int r = 0; r < kRanks; ++r) {
      REQUIRE(written[r] == static_cast<long>(k) * kRanks + r);
      sum += written[r];
    }
    REQUIRE(sum == static_cast<long>(k) * kRanks * kRanks + kRanks * (kRanks - 1) / 2);
  }
  for (int r = 0; r < kRanks; ++r) CHECK(runs[r] == kRuns);
}

TEST_CASE("a rank's exception reaches the caller of run and the threads go on", "[learner][replica]") {
  ReplicaThreads threads(3);
  for (int k = 0; k < 200; ++k) {
    const int failing = k % 3;
    std::vector<int> ran(3, 0);
    CHECK_THROWS_WITH(threads.run([&](int rank) {
      ran[rank] = 1;
      if (rank == failing) throw std::runtime_error("rank " + std::to_string(rank) + " failed");
    }),
                      "rank " + std::to_string(failing) + " failed");
    CHECK(ran == std::vector<int>{1, 1, 1});  // the others finished before run() returned
  }
  std::vector<int> ran(3, 0);
  threads.run([&](int rank) { ran[rank] = 1; });
  CHECK(ran == std::vector<int>{1, 1, 1});
}
