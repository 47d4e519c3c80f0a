#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>
#include <vector>

#include "seedrl/util/bounded_queue.h"

using namespace seedrl;
using namespace std::chrono_literals;

TEST_CASE("pop_n returns only once the whole batch is queued, in order", "[util][queue]") {
  BoundedQueue<int> q(16);
  std::vector<int> out(8, -1);
  std::atomic<bool> done{false};
  std::size_t got = 0;
  std::thread consumer([&] {
    got = q.pop_n(out.data(), out.size());
    done.store(true);
  });
  for (int i = 0; i < 7; ++i) REQUIRE(q.push(i));
  std::this_thread::sleep_for(50ms);
  CHECK_FALSE(done.load());  // 7 of 8 queued: still waiting
  REQUIRE(q.push(7));
  consumer.join();
  CHECK(got == 8);
  for (int i = 0; i < 8; ++i) CHECK(out[i] == i);
  CHECK(q.size() == 0);
}

TEST_CASE("pop_n gathers a batch larger than the queue", "[util][queue]") {
  BoundedQueue<int> q(3);
  std::thread producer([&] {
    for (int i = 0; i < 10; ++i) q.push(i);  // blocks while 3 are queued
  });
  std::vector<int> out(10, -1);
  CHECK(q.pop_n(out.data(), out.size()) == 10);
  producer.join();
  for (int i = 0; i < 10; ++i) CHECK(out[i] == i);
}

TEST_CASE("pop_n under many producers takes every item once and keeps each producer's order", "[util][queue]") {
  constexpr int kProducers = 32, kPerProducer = 2000, kBatch = 64;
  BoundedQueue<int> q(2 * kBatch);
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p)
    producers.emplace_back([&q, p] {
      for (int i = 0; i < kPerProducer; ++i) q.push(p * kPerProducer + i);
    });
  std::vector<int> next(kProducers, 0), batch(kBatch);
  for (int taken = 0; taken < kProducers * kPerProducer; taken += kBatch) {
    REQUIRE(q.pop_n(batch.data(), batch.size()) == static_cast<std::size_t>(kBatch));
    for (int v : batch) {
      const int p = v / kPerProducer;
      REQUIRE(v % kPerProducer == next[p]);
      ++next[p];
    }
  }
  for (auto& t : producers) t.join();
  for (int p = 0; p < kProducers; ++p) CHECK(next[p] == kPerProducer);
}

TEST_CASE("pop_n hands back a partial batch on close or cancel", "[util][queue]") {
  BoundedQueue<int> q(8);
  std::vector<int> out(4, -1);
  REQUIRE(q.push(10));
  REQUIRE(q.push(11));
  SECTION("cancel") {
    std::atomic<bool> cancel{false};
    std::thread canceller([&] {
      std::this_thread::sleep_for(30ms);
      cancel.store(true);
    });
    CHECK(q.pop_n(out.data(), out.size(), &cancel) == 0);  // nothing taken: it waits for all 4
    canceller.join();
    CHECK(q.size() == 2);
    CHECK_FALSE(q.closed());
  }
  SECTION("close") {
    std::thread closer([&] {
      std::this_thread::sleep_for(30ms);
      q.close();
    });
    CHECK(q.pop_n(out.data(), out.size()) == 0);
    closer.join();
  }
}
