// settled() counts the actor threads that have made and reset their envs, or
// failed to: `seedrl bench` waits on it before its end-to-end window, so it
// must reach the thread count even when no action ever comes back or an env
// cannot be made at all (else the bench would hang instead of measuring).
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>

#include "../util/wait_until.h"
#include "seedrl/actor/actor_pool.h"
#include "seedrl/inference/request_batcher.h"

using namespace seedrl;

namespace {
void run_pool(const char* env, int actors) {
  RequestBatcher batcher(ArraySpec{{4}, DType::kFloat32}, 8, std::chrono::microseconds(500), 2000, false);
  ActorPoolConfig c;
  c.env = env;
  c.actors = actors;
  c.envs_per_actor = 3;
  EpisodeStats stats;
  std::atomic<std::int64_t> frames{0};
  ActorPool pool(c, batcher, stats, frames);
  CHECK(pool.settled() == 0);
  pool.start();
  // Nobody serves the batcher: every actor blocks in its first submit.
  CHECK(test::wait_until([&] { return pool.settled() == actors; }));
  CHECK(frames.load() == 0);
  batcher.close();
  pool.join();
  CHECK(pool.settled() == actors);
}
}  // namespace

TEST_CASE("every actor thread settles once its envs are made, before any action", "[actor]") {
  run_pool("cartpole", 24);
}

TEST_CASE("an actor thread whose env cannot be made still settles", "[actor]") { run_pool("no-such-env", 24); }

TEST_CASE("actor threads end their waits in yields only when they outnumber the hardware threads", "[actor]") {
  CHECK(actors_yield(16, 2));
  CHECK(actors_yield(3, 2));
  CHECK_FALSE(actors_yield(2, 2));
  CHECK_FALSE(actors_yield(1, 2));
  CHECK_FALSE(actors_yield(1, 0));  // hardware_concurrency() unknown: one thread
  CHECK(actors_yield(2, 0));
}
