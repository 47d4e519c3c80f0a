// RecordTurns under many threads, as inference threads use it: batches are
// taken in order, each takes its rows' tickets before answering, and records
// later, each thread at its own pace. Every slot's records must come out in
// step order; a settled slot has every answered step recorded; abandon()
// frees every waiter.
#include <catch2/catch.hpp>

#include <atomic>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "seedrl/inference/record_turns.h"

using namespace seedrl;

TEST_CASE("record turns keep each slot's steps in order across many threads", "[inference][record_turns]") {
  const int slots = 16, rounds = 300, threads = 8, rows_per_batch = 4;
  RecordTurns turns(slots);
  // Round r of every slot, cut into batches of consecutive slots; a slot's
  // step r+1 is only handed out after its step r was (the answer's order).
  struct Row {
    int slot, step;
    std::uint32_t ticket;
  };
  std::mutex mu;
  int next_round = 0, next_slot = 0;
  std::vector<std::vector<int>> recorded(slots);  // guarded by the turns alone
  std::vector<std::thread> pool;
  for (int w = 0; w < threads; ++w) {
    pool.emplace_back([&, w] {
      std::mt19937 rng(static_cast<unsigned>(w));
      std::vector<Row> batch;
      for (;;) {
        batch.clear();
        {
          std::lock_guard lock(mu);
          if (next_round == rounds) return;
          for (int k = 0; k < rows_per_batch && next_slot < slots; ++k, ++next_slot)
            batch.push_back(Row{next_slot, next_round, turns.take_ticket(next_slot)});
          if (next_slot == slots) {
            next_slot = 0;
            ++next_round;
          }
        }
        // Threads fall behind each other by a varying amount before recording.
        for (int y = static_cast<int>(rng() % 50); y > 0; --y) std::this_thread::yield();
        for (const Row& row : batch) {
          turns.wait_turn(row.slot, row.ticket);
          recorded[row.slot].push_back(row.step);
          turns.pass_turn(row.slot);
        }
      }
    });
  }
  for (auto& t : pool) t.join();
  for (int s = 0; s < slots; ++s) {
    INFO("slot " << s);
    REQUIRE(recorded[s].size() == static_cast<std::size_t>(rounds));
    for (int r = 0; r < rounds; ++r) REQUIRE(recorded[s][r] == r);
  }
}

TEST_CASE("a slot settles once every step it was answered for is recorded", "[inference][record_turns]") {
  RecordTurns turns(2);
  const std::uint32_t first = turns.take_ticket(1);
  const std::uint32_t second = turns.take_ticket(1);
  CHECK(first == 0);
  CHECK(second == 1);
  turns.wait_settled(0);  // nothing taken on slot 0: settled at once
  std::atomic<bool> settled{false};
  std::thread waiter([&] {
    turns.wait_settled(1);
    settled = true;
  });
  turns.wait_turn(1, first);
  turns.pass_turn(1);
  CHECK_FALSE(settled.load());  // one step still unrecorded
  turns.wait_turn(1, second);
  turns.pass_turn(1);
  waiter.join();
  CHECK(settled.load());
}

TEST_CASE("abandoned turns free the threads waiting for them", "[inference][record_turns]") {
  RecordTurns turns(3);
  turns.take_ticket(2);  // answered, and its thread will never record it
  const std::uint32_t next = turns.take_ticket(2);
  std::vector<std::thread> waiters;
  waiters.emplace_back([&] { turns.wait_turn(2, next); });
  waiters.emplace_back([&] { turns.wait_settled(2); });
  turns.abandon();
  for (auto& t : waiters) t.join();  // a hang here is the failure
  turns.wait_turn(2, 7);             // and later waits return at once
  SUCCEED("every waiter returned");
}
