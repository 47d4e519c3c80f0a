// The learner's remote-actor server on loopback: remote steps are batched,
// counted and routed like local ones; a dead connection costs only its own
// partial unroll; hostile peers are refused while a good actor keeps going.
#include "remote_rig.h"  // first: LibTorch may bring glog's CHECK, Catch's must win

#include <catch2/catch.hpp>
#include <functional>
#include <limits>
#include <utility>

#include <boost/asio.hpp>

#include "raw_peer.h"
#include "seedrl/env/env_settings.h"
#include "seedrl/env/registry.h"
#include "seedrl/net/remote_actor_runner.h"

using namespace seedrl;
using namespace seedrl::test;
namespace {

// Deadlines long enough that only a hang reaches them: the suite runs on
// loaded cores.
net::RemoteServerConfig small_server(int slots) {
  net::RemoteServerConfig c;
  c.num_slots = slots;
  c.first_slot = 3;  // as if three local envs came first
  c.timeout = std::chrono::seconds(120);
  c.handshake_timeout = std::chrono::seconds(120);
  c.heartbeat = std::chrono::milliseconds(100);
  return c;
}

template <typename Pred>
bool wait_for(Pred pred) {
  return wait_until(pred);
}

// Sends raw bytes and collects the reply until the server closes the connection.
RawReply raw_exchange(std::uint16_t port, const std::vector<std::uint8_t>& send) {
  return RawPeer(port).exchange(send);
}

}  // namespace

TEST_CASE("remote steps are batched routed and counted like local ones", "[net][server]") {
  RemoteRig rig(small_server(16));
  const int clients = 3, envs = 2, steps = 40;
  std::vector<std::unique_ptr<ToyActor>> actors;
  for (int c = 0; c < clients; ++c) actors.push_back(std::make_unique<ToyActor>(rig.client(envs), 1.f + c));
  std::vector<net::Welcome> welcomes;
  for (auto& a : actors) welcomes.push_back(a->connect());
  REQUIRE(wait_for([&] { return rig.server.active_sessions() == clients; }));
  CHECK(rig.server.free_slots() == 16 - clients * envs);
  for (auto& w : welcomes) CHECK((w.first_slot >= 3 && w.first_slot < 19));
  std::vector<std::thread> threads;
  for (auto& a : actors)
    threads.emplace_back([&a] {
      for (int i = 0; i < steps; ++i) a->step();
    });
  for (auto& t : threads) t.join();
  std::int64_t sent = 0;
  for (auto& a : actors) {
    CHECK(a->wrong_actions == 0);
    sent += a->sent_frames;
  }
  // Every step the learner saw is a frame; every 5-step episode is recorded.
  CHECK(rig.frames.load() == sent);
  const auto ep = rig.episodes.summary();
  // Env steps per env: 40 round trips, a reset after every 5 steps -> episodes of 6 round trips.
  CHECK(ep.episodes == clients * envs * ((steps - 1) / 6));
  CHECK(ep.return_mean == Approx(5.0));
  CHECK(ep.length_mean == Approx(5.0));
  actors.clear();  // disconnect: the slots come back
  CHECK(wait_for([&] { return rig.server.free_slots() == 16 && rig.released.load() == clients * envs; }));
}

TEST_CASE("a remote actor clips continuous actions to the box before its env steps", "[net][server]") {
  // Inference sends an unbounded sample (5 for a force in [-1, 1]); the env
  // must get 1, as from a local actor, so MountainCarContinuous's control
  // cost 0.1 a^2 is 0.1 per step, not 2.5.
  const EnvSpec spec = EnvRegistry::builtin().make("mountaincar-continuous", {})->spec();
  RemoteRig rig(small_server(4), 1, spec, [](const float*, float* a) { a[0] = 5.f; });
  net::RemoteActorsConfig c;
  c.port = rig.server.port();
  c.env = "mountaincar-continuous";
  c.timeout = std::chrono::seconds(120);
  net::RemoteActorRunner runner(c);
  runner.start();
  const bool got = wait_for([&] {
    std::lock_guard lock(rig.mu);
    return rig.unroll_rewards.size() >= 10;
  });
  runner.request_stop();
  runner.join();
  REQUIRE(got);
  std::lock_guard lock(rig.mu);
  int costs = 0;
  for (const auto& unroll : rig.unroll_rewards)
    for (std::size_t t = 1; t < unroll.size(); ++t) {  // entry 0 repeats the previous unroll's last
      CAPTURE(unroll[t]);
      CHECK((unroll[t] == Approx(-0.1f) || unroll[t] == 0.f || unroll[t] > 99.f));
      costs += unroll[t] == Approx(-0.1f);
    }
  CHECK(costs >= 20);
}

TEST_CASE("each remote connection is served by the least loaded inference device", "[net][server]") {
  auto config = small_server(16);
  config.local_envs = {1, 0};  // device 0 already serves one local env
  RemoteRig rig(config, 2);
  auto rows = [&](int d) { return rig.batchers[d]->rows(); };
  // Live envs per device: {1, 0} -> A (2 envs) on 1 -> {1, 2} -> B (3) on 0 -> {4, 2} -> C (1) on 1.
  ToyActor a(rig.client(2), 1.f), c(rig.client(1), 3.f);
  auto b = std::make_unique<ToyActor>(rig.client(3), 2.f);
  a.connect();
  b->connect();
  c.connect();
  for (int i = 0; i < 4; ++i) a.step();
  for (int i = 0; i < 7; ++i) b->step();
  for (int i = 0; i < 9; ++i) c.step();
  CHECK(rows(0) == 3 * 7);
  CHECK(rows(1) == 2 * 4 + 1 * 9);
  CHECK(b->wrong_actions == 0);
  b.reset();  // {1, 3}: the next connection goes to device 0 again
  REQUIRE(wait_for([&] { return rig.server.free_slots() == 16 - 3; }));
  ToyActor d(rig.client(2), 4.f);
  d.connect();
  for (int i = 0; i < 5; ++i) d.step();
  CHECK(rows(0) == 3 * 7 + 2 * 5);
  CHECK(rows(1) == 2 * 4 + 1 * 9);
  for (ToyActor* t : {&a, &c, &d}) CHECK(t->wrong_actions == 0);
}

TEST_CASE("a dropped remote actor costs only its own partial unroll", "[net][server]") {
  RemoteRig rig(small_server(2));
  // A good actor keeps one slot busy throughout.
  std::atomic<bool> stop{false};
  std::atomic<std::int64_t> good_steps{0};
  int good_wrong = -1;
  auto gc = rig.client(1);
  gc.stop = &stop;
  std::thread good([&] {
    ToyActor g(gc, 7.f, 1000);
    g.connect();
    try {
      for (;;) good_steps += g.step();
    } catch (const net::Stopped&) {
    }
    good_wrong = g.wrong_actions;
  });
  REQUIRE(wait_for([&] { return good_steps.load() > 10; }));

  std::uint32_t a_slot;
  {
    ToyActor a(rig.client(1), 1.f, 1000);
    a_slot = a.connect().first_slot;
    // 6 round trips: one full unroll of 4 entries, then a partial one.
    for (int i = 0; i < 6; ++i) a.step();
  }  // the socket closes abruptly here
  REQUIRE(wait_for([&] { return rig.released.load() == 1 && rig.server.free_slots() == 1; }));
  const std::int64_t at_drop = good_steps.load();
  ToyActor b(rig.client(1), 2.f, 1000);
  CHECK(b.connect().first_slot == a_slot);  // the freed slot is leased again
  for (int i = 0; i < 12; ++i) b.step();
  CHECK(b.wrong_actions == 0);
  CHECK(wait_for([&] { return good_steps.load() > at_drop + 20; }));  // the good actor never stalled
  stop.store(true);
  good.join();
  CHECK(good_wrong == 0);
  // B's 12 entries make 3 unrolls of 4 (overlap 1). They are queued by now,
  // but closing the store drops what the learner thread has not taken yet:
  // wait until it has taken them.
  auto unrolls_of = [&](float id) {
    std::lock_guard lock(rig.mu);
    int n = 0;
    for (const auto& ids : rig.unroll_ids) n += ids.front() == id;
    return n;
  };
  CHECK(wait_for([&] { return unrolls_of(2.f) >= 3; }));
  rig.shutdown();
  // No unroll holds entries of two connections.
  for (const auto& ids : rig.unroll_ids)
    for (float id : ids) CHECK(id == ids.front());
  CHECK(unrolls_of(1.f) == 1);  // A's partial second unroll was dropped
  CHECK(unrolls_of(2.f) == 3);
}

TEST_CASE("hostile peers are refused while a good actor keeps running", "[net][server]") {
  auto config = small_server(8);
  config.token = "correct horse";
  config.max_connections = 4;
  RemoteRig rig(config);
  std::atomic<bool> stop{false};
  std::atomic<std::int64_t> good_steps{0};
  int good_wrong = -1;
  auto gc = rig.client(2);
  gc.token = "correct horse";
  gc.stop = &stop;
  std::thread good([&] {
    ToyActor g(gc, 7.f);
    g.connect();
    try {
      for (;;) good_steps += g.step();
    } catch (const net::Stopped&) {
    }
    good_wrong = g.wrong_actions;
  });
  REQUIRE(wait_for([&] { return good_steps.load() > 10; }));
  const auto port = rig.server.port();
  auto expect_reject = [](auto&& fn, net::RejectCode code) {
    try {
      fn();
      FAIL("not refused");
    } catch (const net::Rejected& e) {
      CHECK(e.code == code);
    }
  };

  SECTION("bad token, spec mismatch, wrong version, oversized frame, garbage, truncation") {
    auto bad = rig.client(1);
    bad.token = "wrong";
    expect_reject([&] { net::RemoteActorConnection(bad).connect(); }, net::RejectCode::kBadToken);
    auto spec = rig.client(1);
    spec.token = "correct horse";
    spec.spec.observation.shape = {3};
    expect_reject([&] { net::RemoteActorConnection(spec).connect(); }, net::RejectCode::kSpecMismatch);
    auto many = rig.client(100);
    many.token = "correct horse";
    expect_reject([&] { net::RemoteActorConnection(many).connect(); }, net::RejectCode::kBusy);

    net::Hello h;
    h.version = 99;
    h.observation = toy_spec().observation;
    h.action = toy_spec().action;
    std::vector<std::uint8_t> frame;
    net::encode_hello(h, frame);
    auto r = reject_in(raw_exchange(port, frame));
    REQUIRE(r);
    CHECK(r->code == net::RejectCode::kBadVersion);

    r = reject_in(raw_exchange(port, {0, 0, 0, 0x40, 1}));
    REQUIRE(r);
    CHECK_THAT(r->message, Catch::Contains("oversized"));

    const std::string http = "GET / HTTP/1.1\r\nHost: learner\r\n\r\n";
    r = reject_in(raw_exchange(port, std::vector<std::uint8_t>(http.begin(), http.end())));
    REQUIRE(r);
    CHECK(r->code == net::RejectCode::kBadRequest);

    CHECK(rig.server.counters().refused.load() >= 6);
  }

  SECTION("a peer with the token that sends a NaN observation or an infinite reward") {
    // Either would reach the loss and, through the next checkpoint, replace
    // the trained model: the peer is dropped, the run goes on.
    auto pc = rig.client(2);
    pc.token = "correct horse";
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (const bool bad_obs : {true, false}) {
      ToyActor p(pc, 9.f);
      p.connect();
      p.step();
      if (bad_obs) {
        std::memcpy(static_cast<std::uint8_t*>(p.conn.obs(1)) + sizeof(float), &nan, sizeof(float));
      } else {
        p.conn.rewards()[0] = std::numeric_limits<float>::infinity();
      }
      try {
        p.conn.step();
        FAIL("not dropped");
      } catch (const net::LearnerGone& e) {
        CHECK(e.code == net::GoodbyeCode::kProtocolError);
        CHECK_THAT(e.what(), Catch::Contains(bad_obs ? "env 1: non-finite observation" : "env 0: non-finite reward"));
      }
    }
  }

  // A flood of connections: remote_flood_test.cc.

  const std::int64_t before = good_steps.load();
  CHECK(wait_for([&] { return good_steps.load() > before + 20; }));
  stop.store(true);
  good.join();
  CHECK(good_wrong == 0);
  CHECK(wait_for([&] { return rig.server.active_sessions() == 0 && rig.server.free_slots() == 8; }));
}

TEST_CASE("half a HELLO, then silence, is closed at the handshake deadline without a reply", "[net][server]") {
  auto config = small_server(2);
  config.handshake_timeout = std::chrono::milliseconds(500);
  RemoteRig rig(config);
  net::Hello h;
  h.observation = toy_spec().observation;
  h.action = toy_spec().action;
  std::vector<std::uint8_t> frame;
  net::encode_hello(h, frame);
  frame.resize(12);
  const auto t0 = std::chrono::steady_clock::now();
  const RawReply silent = raw_exchange(rig.server.port(), frame);
  CHECK(silent.closed);
  CHECK(silent.bytes.empty());
  // Not before the deadline (how long after depends on the machine's load).
  CHECK(std::chrono::steady_clock::now() - t0 >= config.handshake_timeout);
  CHECK(rig.server.counters().refused.load() == 1);
  CHECK(wait_for([&] { return rig.server.held_sockets() == 0; }));
}

TEST_CASE("an actor whose env settings differ from the learner's is refused naming the first difference",
          "[net][server]") {
  net::RemoteServerConfig config = small_server(8);
  EnvOptions learner_options;
  config.env_settings = env_settings("cartpole", learner_options);
  RemoteRig rig(config);
  const auto refusal_of = [&](const std::string& settings) -> std::string {
    net::ClientConfig c = rig.client(1);
    c.env_settings = settings;
    net::RemoteActorConnection conn(c);
    try {
      conn.connect();
    } catch (const net::Rejected& e) {
      CHECK(e.code == net::RejectCode::kSpecMismatch);
      return e.what();
    }
    return "";
  };
  EnvOptions shorter;
  shorter.time_limit = 10;
  CHECK_THAT(refusal_of(env_settings("cartpole", shorter)),
             Catch::EndsWith("refused this actor: env: --time-limit 10 differs from the learner's 0"));
  // Another env of the very same spec (toy_spec stands in for both here).
  CHECK_THAT(refusal_of(env_settings("acrobot", learner_options)),
             Catch::EndsWith("env: --env acrobot differs from the learner's cartpole"));
  // The same settings, and none at all (an actor that is not seedrl's), are let in.
  CHECK(refusal_of(env_settings("cartpole", learner_options)).empty());
  CHECK(refusal_of("").empty());
  CHECK(wait_for([&] { return rig.server.counters().refused.load() == 2; }));
}
