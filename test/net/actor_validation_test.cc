// The actor trusts nothing from the network either: a learner (or whatever
// answers on its port) that sends an action outside the spec, a NaN, or a
// malformed frame ends the connection with one line naming it, before any
// environment sees the action; `seedrl actor` exits nonzero instead of
// crashing (Acrobot indexes its torque table with the action).
#include <sys/socket.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <mutex>
#include <thread>

#include "../cli/run_binary.h"
#include "raw_peer.h"
#include "seedrl/env/env_step.h"
#include "seedrl/env/registry.h"
#include "seedrl/net/remote_actor_client.h"
#include "seedrl/net/remote_actor_runner.h"

using namespace seedrl;
using namespace seedrl::test;

namespace {

// A scripted learner for one connection: WELCOME, then `reply` answers the
// first STEP (given K and the action width, it returns the frame to send).
// Afterwards it waits for the actor to hang up.
class FakeLearner {
 public:
  using Reply = std::function<std::vector<std::uint8_t>(std::size_t envs, std::size_t width)>;

  explicit FakeLearner(Reply reply)
      : acceptor_(io_, {asio::ip::make_address("127.0.0.1"), 0}), reply_(std::move(reply)) {
    thread_ = std::thread([this] { serve(); });
  }
  ~FakeLearner() {
    // Unblocks whatever the thread waits in (the test failed otherwise).
    {
      std::lock_guard lock(mu_);
      stopping_ = true;
      ::shutdown(acceptor_.native_handle(), SHUT_RDWR);
      if (socket_) ::shutdown(socket_->native_handle(), SHUT_RDWR);
    }
    thread_.join();
  }
  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
  std::string address() const { return "127.0.0.1:" + std::to_string(port()); }
  // The actor closed the connection after the reply.
  bool hung_up() const { return hung_up_.load(); }
  int connections() const { return connections_.load(); }

 private:
  void serve() {
    tcp::socket s(io_);
    try {
      acceptor_.accept(s);
      {
        std::lock_guard lock(mu_);
        if (stopping_) return;
        socket_ = &s;
      }
      ++connections_;
      auto read_frame = [&] {
        std::vector<std::uint8_t> frame(net::kHeaderBytes);
        asio::read(s, asio::buffer(frame));
        const auto h =
            net::decode_header(std::span<const std::uint8_t, net::kHeaderBytes>(frame.data(), net::kHeaderBytes));
        frame.resize(net::kHeaderBytes + h.body_bytes());
        asio::read(s, asio::buffer(frame.data() + net::kHeaderBytes, h.body_bytes()));
        return frame;
      };
      const auto hello_frame = read_frame();
      const net::Hello hello = net::decode_hello(std::span(hello_frame).subspan(net::kHeaderBytes));
      std::vector<std::uint8_t> welcome;
      net::encode_welcome({}, welcome);
      asio::write(s, asio::buffer(welcome));
      read_frame();  // the first STEP
      asio::write(s, asio::buffer(reply_(hello.num_envs, static_cast<std::size_t>(hello.action.width()))));
      std::array<std::uint8_t, 4096> sink;
      boost::system::error_code ec;
      while (!ec) s.read_some(asio::buffer(sink), ec);
      hung_up_.store(ec == asio::error::eof || ec == asio::error::connection_reset);
      std::lock_guard lock(mu_);
      socket_ = nullptr;
    } catch (const std::exception&) {
      std::lock_guard lock(mu_);
      socket_ = nullptr;
    }
  }

  asio::io_context io_;
  tcp::acceptor acceptor_;
  Reply reply_;
  std::mutex mu_;
  bool stopping_ = false;
  tcp::socket* socket_ = nullptr;
  std::atomic<bool> hung_up_{false};
  std::atomic<int> connections_{0};
  std::thread thread_;
};

// ACTIONS whose env 0 gets a valid action and env 1 `bad`.
FakeLearner::Reply actions_with(float good, float bad) {
  return [=](std::size_t envs, std::size_t width) {
    std::vector<std::uint8_t> frame(net::kHeaderBytes + net::actions_body_bytes(envs, width));
    net::write_header(net::MsgType::kActions, net::actions_body_bytes(envs, width), frame.data());
    std::vector<float> a(envs * width, good);
    a[width] = bad;
    std::memcpy(frame.data() + net::kHeaderBytes, a.data(), a.size() * sizeof(float));
    return frame;
  };
}

// Runs one actor thread of `env` with 2 envs against the learner until it gives up.
net::RemoteActorRunner& run_actor(std::optional<net::RemoteActorRunner>& runner, const FakeLearner& learner,
                                  const std::string& env) {
  net::RemoteActorsConfig c;
  c.port = learner.port();
  c.env = env;
  c.envs_per_actor = 2;
  c.timeout = std::chrono::seconds(120);
  runner.emplace(c);
  runner->start();
  return *runner;
}

}  // namespace

TEST_CASE("an actor refuses actions outside the spec before its envs see them", "[net][actor]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  struct Case {
    std::string env;
    float good, bad;
  };
  // Acrobot has 3 actions; MountainCarContinuous a force in [-1, 1] that the actor clips.
  for (const Case& c : {Case{"acrobot", 1.f, 3.f}, Case{"acrobot", 1.f, -1.f}, Case{"acrobot", 1.f, 1e9f},
                        Case{"acrobot", 1.f, 1.5f}, Case{"acrobot", 1.f, nan},
                        Case{"mountaincar-continuous", 0.5f, nan}, Case{"mountaincar-continuous", 0.5f, -inf}}) {
    CAPTURE(c.env, c.bad);
    FakeLearner learner(actions_with(c.good, c.bad));
    std::optional<net::RemoteActorRunner> runner;
    run_actor(runner, learner, c.env);
    REQUIRE(wait_until([&] { return runner->done(); }));
    CHECK(runner->status() == 1);  // given up for good, not retrying
    CHECK(runner->steps() == 0);   // no env stepped with the bad action
    CHECK(learner.connections() == 1);
    CHECK(wait_until([&] { return learner.hung_up(); }));
  }
}

TEST_CASE("an actor refuses malformed frames from the learner", "[net][actor]") {
  auto frame_of = [](net::MsgType type, std::vector<std::uint8_t> body) {
    return [type, body](std::size_t, std::size_t) {
      std::vector<std::uint8_t> frame(net::kHeaderBytes);
      net::write_header(type, body.size(), frame.data());
      frame.insert(frame.end(), body.begin(), body.end());
      return frame;
    };
  };
  const std::vector<FakeLearner::Reply> replies = {
      frame_of(net::MsgType::kActions, std::vector<std::uint8_t>(12)),   // 12 bytes where 2 envs need 8
      frame_of(net::MsgType::kWelcome, std::vector<std::uint8_t>(14)),   // not an ACTIONS
      frame_of(net::MsgType::kHeartbeat, std::vector<std::uint8_t>(3)),  // a heartbeat with a body
      frame_of(net::MsgType::kGoodbye, {9, 0, 0, 0}),                    // unknown GOODBYE code
      [](std::size_t, std::size_t) {
        return std::vector<std::uint8_t>{0, 0, 0, 0, 5};
      },  // frame length 0
  };
  for (std::size_t i = 0; i < replies.size(); ++i) {
    CAPTURE(i);
    FakeLearner learner(replies[i]);
    std::optional<net::RemoteActorRunner> runner;
    run_actor(runner, learner, "acrobot");
    REQUIRE(wait_until([&] { return runner->done(); }));
    CHECK(runner->status() == 1);
    CHECK(runner->steps() == 0);
    CHECK(learner.connections() == 1);
  }
}

TEST_CASE("the connection names the learner and what was wrong", "[net][actor]") {
  FakeLearner learner(actions_with(0.f, 7.f));
  net::ClientConfig c;
  c.port = learner.port();
  c.spec = EnvRegistry::builtin().make("acrobot", {})->spec();
  c.num_envs = 2;
  net::RemoteActorConnection conn(c);
  conn.connect();
  conn.flags()[0] = conn.flags()[1] = kFirst;
  try {
    conn.step();
    FAIL("accepted action 7 of 3");
  } catch (const net::BadFrame& e) {
    const std::string what = e.what();
    CHECK_THAT(what,
               Catch::Contains(learner.address()) && Catch::Contains("ACTIONS env 1: action 7 is not one of 0..2"));
    CHECK(what.find('\n') == std::string::npos);
  }
}

TEST_CASE("seedrl actor exits nonzero with one line on a NaN action", "[net][actor][cli]") {
  FakeLearner learner(actions_with(0.f, std::numeric_limits<float>::quiet_NaN()));
  const RunResult r =
      run_seedrl({"actor", "--connect", learner.address(), "--env", "acrobot", "--envs-per-actor", "2"});
  INFO(r.output);
  CHECK(r.status == 1);  // not a crash (128 + signal), not success
  int error_lines = 0;
  std::size_t start = 0;
  while (start < r.output.size()) {
    const std::size_t end = std::min(r.output.find('\n', start), r.output.size());
    const std::string line = r.output.substr(start, end - start);
    if (line.find("bad frame") != std::string::npos) {
      ++error_lines;
      CHECK_THAT(line, Catch::Contains(learner.address()) && Catch::Contains("action nan"));
    }
    start = end + 1;
  }
  CHECK(error_lines == 1);
}
