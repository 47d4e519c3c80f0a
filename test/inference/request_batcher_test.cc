// The batcher under thousands of concurrent requesters: every request is
// answered exactly once with its own row, and partial batches are flushed on
// timeout.
#include <atomic>
#include <catch2/catch.hpp>
#include <thread>
#include <vector>

#include <torch/torch.h>

#include "../util/sleeping_thread.h"
#include "../util/wait_until.h"
#include "seedrl/inference/request_batcher.h"

using namespace seedrl;
using seedrl::test::wait_until;

namespace {

// A stand-in for inference: answers each row with a function of its
// observation and slot, and counts how often each (slot, step) was served.
// (Catch2 assertions are not thread-safe: mismatches are counted instead.)
struct ServeCounters {
  std::atomic<int> max_batch{0}, batches{0}, mismatches{0};
};
void serve(RequestBatcher& batcher, std::vector<std::atomic<int>>& served, int steps_per_slot, ServeCounters& c) {
  while (InferenceBatch* b = batcher.next_batch()) {
    const float* obs = b->obs.data_ptr<float>();
    const auto* slots = b->slots.data_ptr<std::int64_t>();
    for (int i = 0; i < b->size; ++i) {
      const EnvStep& s = *b->steps[i];
      const int step = static_cast<int>(obs[i * 2 + 1]);
      if (slots[i] != s.slot || static_cast<int>(obs[i * 2]) != s.slot) c.mismatches.fetch_add(1);
      served[s.slot * steps_per_slot + step].fetch_add(1);
      s.action[0] = obs[i * 2] * 1000.f + obs[i * 2 + 1];
    }
    int m = c.max_batch.load();
    while (b->size > m && !c.max_batch.compare_exchange_weak(m, b->size)) {
    }
    c.batches.fetch_add(1);
    batcher.complete(b);
  }
}

// One env's request for `step`: true when it was answered with serve()'s
// action for exactly this (slot, step).
bool submit_one(RequestBatcher& batcher, int slot, int step) {
  float obs[2] = {static_cast<float>(slot), static_cast<float>(step)};
  float action = -1;
  EnvStep st{slot, 0, 0.f, obs, &action};
  Completion done;
  return batcher.submit(std::span<EnvStep>(&st, 1), done) && action == slot * 1000.f + step;
}

}  // namespace

TEST_CASE("batcher answers thousands of concurrent actors exactly once each", "[inference][batcher]") {
  // Actors whose waits end in yields, and actors that go straight to sleep.
  const bool yields = GENERATE(true, false);
  INFO("yields " << yields);
  const int actors = 2048, envs_per_actor = 2, steps = 12, batch = 256;
  const int slots = actors * envs_per_actor;
  RequestBatcher batcher(ArraySpec{{2}, DType::kFloat32}, batch, std::chrono::microseconds(500), 8, false);
  std::vector<std::atomic<int>> served(slots * steps);
  ServeCounters c;
  std::atomic<int> wrong{0}, failures{0};
  std::vector<std::thread> inference;
  for (int i = 0; i < 2; ++i) inference.emplace_back([&] { serve(batcher, served, steps, c); });
  std::vector<std::thread> threads;
  for (int a = 0; a < actors; ++a) {
    threads.emplace_back([&, a] {
      float obs[envs_per_actor][2];
      float action[envs_per_actor];
      EnvStep st[envs_per_actor];
      Completion done;
      done.yields = yields;
      for (int t = 0; t < steps; ++t) {
        for (int k = 0; k < envs_per_actor; ++k) {
          const int slot = a * envs_per_actor + k;
          obs[k][0] = static_cast<float>(slot);
          obs[k][1] = static_cast<float>(t);
          action[k] = -1;
          st[k] = EnvStep{slot, 0, 0.f, obs[k], &action[k]};
        }
        if (!batcher.submit(st, done)) {
          failures.fetch_add(1);
          return;
        }
        for (int k = 0; k < envs_per_actor; ++k)
          if (action[k] != (a * envs_per_actor + k) * 1000.f + t) wrong.fetch_add(1);
      }
    });
  }
  for (auto& t : threads) t.join();
  batcher.close();
  for (auto& t : inference) t.join();
  CHECK(c.mismatches.load() == 0);
  CHECK(failures.load() == 0);
  CHECK(wrong.load() == 0);
  int not_once = 0;
  for (auto& s : served) not_once += s.load() != 1;
  CHECK(not_once == 0);
  CHECK(c.max_batch.load() <= batch);
  CHECK(batcher.rows() == static_cast<std::uint64_t>(slots * steps));
  CHECK(c.batches.load() >= slots * steps / batch);
}

TEST_CASE("batcher flushes a partial batch when the timeout passes", "[inference][batcher]") {
  RequestBatcher batcher(ArraySpec{{2}, DType::kFloat32}, 1000, std::chrono::microseconds(2000), 3, false);
  std::vector<std::atomic<int>> served(3 * 5);
  ServeCounters c;
  std::thread inference([&] { serve(batcher, served, 5, c); });
  std::vector<std::thread> actors;
  std::atomic<int> ok{0};
  for (int a = 0; a < 3; ++a) {
    actors.emplace_back([&, a] {
      for (int t = 0; t < 5; ++t) {
        if (submit_one(batcher, a, t)) ok.fetch_add(1);
      }
    });
  }
  for (auto& t : actors) t.join();
  batcher.close();
  inference.join();
  CHECK(ok.load() == 15);
  CHECK(batcher.timeouts() >= 5);  // never full: only timeouts can have flushed
  CHECK(c.max_batch.load() <= 3);
  CHECK(c.mismatches.load() == 0);
}

TEST_CASE("closing the batcher releases waiting actors", "[inference][batcher]") {
  RequestBatcher batcher(ArraySpec{{2}, DType::kFloat32}, 4, std::chrono::microseconds(100), 2, false);
  // No inference thread: actors wait until close().
  std::atomic<int> returned_false{0};
  std::vector<std::thread> actors;
  for (int a = 0; a < 16; ++a) {
    actors.emplace_back([&, a] {
      float obs[2] = {static_cast<float>(a), 0};
      float action;
      EnvStep st{a, 0, 0.f, obs, &action};
      Completion done;
      if (!batcher.submit(std::span<EnvStep>(&st, 1), done)) returned_false.fetch_add(1);
    });
  }
  // Some actors may not have submitted yet: they are refused all the same.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  batcher.close();
  for (auto& t : actors) t.join();
  CHECK(returned_false.load() == 16);
  CHECK(batcher.next_batch() == nullptr);
}

TEST_CASE("close() answers running batches before their actors may leave", "[inference][batcher]") {
  // Actors must not return (and free their EnvSteps) while an inference
  // thread still works on their rows.
  RequestBatcher batcher(ArraySpec{{2}, DType::kFloat32}, 4, std::chrono::seconds(60), 3, false);
  std::atomic<bool> taken{false}, closed{false}, completed{false};
  std::thread inference([&] {
    InferenceBatch* b = batcher.next_batch();
    taken.store(true);
    wait_until([&] { return closed.load(); });  // a forward still running when close() comes
    for (int i = 0; i < b->size; ++i) b->steps[i]->action[0] = 7.f;
    completed.store(true);
    batcher.complete(b);
  });
  std::atomic<int> answered{0}, refused{0}, early{0};
  auto actor = [&](int a) {
    float obs[2] = {static_cast<float>(a), 0};
    float action = -1;
    EnvStep st{a, 0, 0.f, obs, &action};
    Completion done;
    const bool ok = batcher.submit(std::span<EnvStep>(&st, 1), done);
    if (ok && action == 7.f) answered.fetch_add(1);
    if (!ok) refused.fetch_add(1);
    if (taken.load() && !completed.load() && ok) early.fetch_add(1);
  };
  std::vector<std::thread> actors;
  for (int a = 0; a < 4; ++a) actors.emplace_back(actor, a);  // fill the running batch
  while (!taken.load()) std::this_thread::yield();
  for (int a = 4; a < 7; ++a) actors.emplace_back(actor, a);  // a partial batch nobody runs
  CHECK(wait_until([&] { return batcher.open_rows() == 3; }));
  batcher.close();
  closed.store(true);
  for (auto& t : actors) t.join();
  inference.join();
  CHECK(answered.load() == 4);
  CHECK(refused.load() == 3);
  CHECK(early.load() == 0);
}

TEST_CASE("actors asleep on a batch are woken together by its answer", "[inference][batcher]") {
  const int actors = 64;
  RequestBatcher batcher(ArraySpec{{2}, DType::kFloat32}, actors, std::chrono::seconds(60), 2, false);
  std::atomic<int> answered{0};
  seedrl::test::ThreadIds ids(actors);
  std::vector<std::thread> threads;
  for (int a = 0; a < actors; ++a)
    threads.emplace_back([&, a] {
      ids.record(a);
      if (submit_one(batcher, a, 3)) answered.fetch_add(1);
    });
  InferenceBatch* b = batcher.next_batch();
  REQUIRE(b != nullptr);
  REQUIRE(b->size == actors);
  // Every actor past its spins and yields, asleep on the batch's word.
  CHECK(seedrl::test::wait_until_sleeping_on(ids.all(), &b->answered));
  const std::uint32_t generation = b->answered.load() & Completion::kGeneration;
  CHECK((b->answered.load() & Completion::kAnswerSleepers) != 0);
  int sleeping_on_own_word = 0;  // those would each cost the answer a system call
  for (int i = 0; i < b->size; ++i)
    sleeping_on_own_word += (b->completions[i]->pending.load() & Completion::kSleeping) != 0;
  CHECK(sleeping_on_own_word == 0);
  CHECK(answered.load() == 0);
  const float* obs = b->obs.data_ptr<float>();
  for (int i = 0; i < b->size; ++i) b->steps[i]->action[0] = obs[i * 2] * 1000.f + obs[i * 2 + 1];
  batcher.complete(b);
  for (auto& t : threads) t.join();
  CHECK(answered.load() == actors);
  CHECK((b->answered.load() & Completion::kGeneration) == generation + 1);
  CHECK((b->answered.load() & Completion::kAnswerSleepers) == 0);
  batcher.close();
}

TEST_CASE("an actor whose rows span two batches waits for both whatever their order", "[inference][batcher]") {
  // Batch size 1: the actor's two envs land in batches A and B. Answering its
  // last batch (B) first must not release it while A is unanswered.
  RequestBatcher batcher(ArraySpec{{2}, DType::kFloat32}, 1, std::chrono::seconds(60), 4, false);
  float obs[2][2] = {{0, 0}, {1, 0}};
  float action[2] = {-1, -1};
  EnvStep st[2] = {EnvStep{0, 0, 0.f, obs[0], &action[0]}, EnvStep{1, 0, 0.f, obs[1], &action[1]}};
  std::atomic<bool> returned{false};
  std::atomic<bool> ok{false};
  Completion done;
  seedrl::test::ThreadIds id(1);
  std::thread actor([&] {
    id.record(0);
    ok.store(batcher.submit(st, done));
    returned.store(true);
  });
  InferenceBatch* a = batcher.next_batch();
  InferenceBatch* b = batcher.next_batch();
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  CHECK(a->slots[0].item<std::int64_t>() == 0);
  CHECK(b->slots[0].item<std::int64_t>() == 1);
  const int tid = id.all()[0];
  CHECK(seedrl::test::wait_until_sleeping_on({tid}, &b->answered));  // the actor sleeps on B
  b->steps[0]->action[0] = 11.f;
  batcher.complete(b);
  // Woken by B's answer, it must sleep again, now on its own count.
  wait_until([&] { return returned.load() || seedrl::test::futex_word_of(tid) == &done.pending; });
  CHECK_FALSE(returned.load());
  a->steps[0]->action[0] = 10.f;
  batcher.complete(a);
  actor.join();
  CHECK(ok.load());
  CHECK(action[0] == 10.f);
  CHECK(action[1] == 11.f);
  batcher.close();
}

TEST_CASE("batches are sealed at half of the live envs, never waiting on absent ones", "[inference][batcher]") {
  // Room for 1000 rows and a 60 s timeout: only the live-env target can seal.
  RequestBatcher batcher(ArraySpec{{2}, DType::kFloat32}, 1000, std::chrono::seconds(60), 8, false);
  batcher.track_live_envs(0, /*half_of_live=*/true);
  CHECK(batcher.fill_target() == 1);
  batcher.add_live_envs(6);  // e.g. a remote actor with 6 envs connects
  CHECK(batcher.fill_target() == 3);
  std::vector<std::atomic<int>> served(6 * 20);
  ServeCounters c;
  std::thread inference([&] { serve(batcher, served, 20, c); });
  std::atomic<int> ok{0};
  std::vector<std::thread> actors;
  for (int a = 0; a < 6; ++a) {
    actors.emplace_back([&, a] {
      for (int t = 0; t < 20; ++t) {
        if (submit_one(batcher, a, t)) ok.fetch_add(1);
      }
      batcher.add_live_envs(-1);  // leaves, as a remote actor's envs do: the last ones must not wait
    });
  }
  for (auto& t : actors) t.join();
  batcher.close();
  inference.join();
  CHECK(ok.load() == 120);
  CHECK(batcher.timeouts() == 0);
  CHECK(c.max_batch.load() <= 3);
  CHECK(c.mismatches.load() == 0);
}

TEST_CASE("an env leaving seals a batch that already holds the new target", "[inference][batcher]") {
  RequestBatcher batcher(ArraySpec{{2}, DType::kFloat32}, 8, std::chrono::seconds(60), 3, false);
  batcher.track_live_envs(8, /*half_of_live=*/false);
  CHECK(batcher.fill_target() == 8);
  std::vector<std::atomic<int>> served(3);
  ServeCounters c;
  std::thread inference([&] { serve(batcher, served, 1, c); });
  std::atomic<int> ok{0};
  std::vector<std::thread> actors;
  for (int a = 0; a < 3; ++a) {
    actors.emplace_back([&, a] {
      if (submit_one(batcher, a, 0)) ok.fetch_add(1);
    });
  }
  // The three rows wait in the open batch, then five envs disconnect.
  CHECK(wait_until([&] { return batcher.open_rows() == 3; }));
  CHECK(ok.load() == 0);
  batcher.add_live_envs(-5);
  for (auto& t : actors) t.join();
  batcher.close();
  inference.join();
  CHECK(batcher.fill_target() == 3);
  CHECK(ok.load() == 3);
  CHECK(batcher.timeouts() == 0);  // sealed by the target, not after 60 s
  CHECK(c.max_batch.load() == 3);
}

// submit_async(): sessions that never sleep. Each of 64 "sessions" keeps one
// 4-env request in flight; its on_done callback (run by an inference thread)
// checks the actions and submits the next step itself, as the remote-actor
// server's sessions do from their I/O thread.
TEST_CASE("submit_async answers every request once through its callback, then on close", "[inference][batcher]") {
  const int sessions = 64, envs = 4, steps = 50;
  // A buffer per row: the callbacks submit from inside complete(), before
  // their batch's buffer is recycled, so they must never wait for one.
  RequestBatcher batcher(ArraySpec{{2}, DType::kFloat32}, 32, std::chrono::microseconds(300), sessions * envs + 3,
                         false);
  std::vector<std::atomic<int>> served(sessions * envs * steps);
  ServeCounters c;
  std::vector<std::thread> inference;
  for (int i = 0; i < 2; ++i) inference.emplace_back([&] { serve(batcher, served, steps, c); });

  struct Session {
    float obs[envs][2];
    float action[envs];
    EnvStep st[envs];
    Completion done;
    int t = 0;
    std::atomic<int> answered{0}, wrong{0}, closed{0};
  };
  std::vector<std::unique_ptr<Session>> all;
  std::atomic<int> finished{0};
  auto submit = [&](Session& s, int id) {
    for (int k = 0; k < envs; ++k) {
      const int slot = id * envs + k;
      s.obs[k][0] = static_cast<float>(slot);
      s.obs[k][1] = static_cast<float>(s.t);
      s.action[k] = -1;
      s.st[k] = EnvStep{slot, 0, 0.f, s.obs[k], &s.action[k]};
    }
    batcher.submit_async(s.st, s.done);
  };
  for (int id = 0; id < sessions; ++id) {
    all.push_back(std::make_unique<Session>());
    Session& s = *all.back();
    s.done.on_done = [&, id, &s = s] {
      if (s.done.closed()) {
        s.closed.fetch_add(1);
        return;
      }
      for (int k = 0; k < envs; ++k)
        if (s.action[k] != (id * envs + k) * 1000.f + s.t) s.wrong.fetch_add(1);
      s.answered.fetch_add(1);
      if (++s.t < steps)
        submit(s, id);  // from the inference thread, like a session's next STEP
      else
        finished.fetch_add(1);
    };
  }
  for (int id = 0; id < sessions; ++id) submit(*all[id], id);
  CHECK(wait_until([&] { return finished.load() == sessions; }));
  for (auto& s : all) {
    CHECK(s->answered.load() == steps);
    CHECK(s->wrong.load() == 0);
  }
  int not_once = 0;
  for (auto& s : served) not_once += s.load() != 1;
  CHECK(not_once == 0);
  CHECK(c.mismatches.load() == 0);

  // With no inference running, requests in flight are answered by close():
  // the callback runs once, with closed() set; after close, at once.
  batcher.close();
  for (auto& t : inference) t.join();
  Session late;
  late.done.on_done = [&] { late.closed.fetch_add(late.done.closed() ? 1 : 100); };
  float obs[2] = {0, 0};
  float action;
  late.st[0] = EnvStep{0, 0, 0.f, obs, &action};
  batcher.submit_async(std::span<EnvStep>(late.st, 1), late.done);
  CHECK(late.closed.load() == 1);
}

TEST_CASE("submit_async requests waiting in a batch are answered closed by close()", "[inference][batcher]") {
  RequestBatcher batcher(ArraySpec{{2}, DType::kFloat32}, 64, std::chrono::microseconds(100000), 3, false);
  std::atomic<int> calls{0}, closed{0};
  float obs[8][2] = {};
  float action[8];
  EnvStep st[8];
  for (int k = 0; k < 8; ++k) st[k] = EnvStep{k, 0, 0.f, obs[k], &action[k]};
  Completion done;
  done.on_done = [&] {
    calls.fetch_add(1);
    if (done.closed()) closed.fetch_add(1);
  };
  batcher.submit_async(st, done);  // no inference thread: the rows wait in the open batch
  CHECK(calls.load() == 0);
  batcher.close();
  CHECK(calls.load() == 1);
  CHECK(closed.load() == 1);
}
