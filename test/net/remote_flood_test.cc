// Peers without the token cannot stop a run by opening connections: those
// beyond the limits are answered and closed at once, the server never holds
// more sockets than the open-file limit leaves beside a reserve, so the
// process can still write checkpoints and logs, and a good actor keeps going.
#include "remote_rig.h"  // first: LibTorch may bring glog's CHECK, Catch's must win

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>

#include "../cli/run_binary.h"
#include "raw_peer.h"
#include "seedrl/net/descriptor_reserve.h"

using namespace seedrl;
using namespace seedrl::test;

namespace {

// Lowers the soft open-file limit for the test and restores it after.
class SoftFileLimit {
 public:
  explicit SoftFileLimit(std::size_t soft) {
    ::getrlimit(RLIMIT_NOFILE, &saved_);
    rlimit lowered = saved_;
    lowered.rlim_cur = static_cast<rlim_t>(soft);
    ok = ::setrlimit(RLIMIT_NOFILE, &lowered) == 0;
  }
  ~SoftFileLimit() { ::setrlimit(RLIMIT_NOFILE, &saved_); }
  bool ok = false;

 private:
  rlimit saved_{};
};

// A remote actor on its own thread that steps until stopped.
struct GoodActor {
  explicit GoodActor(net::ClientConfig c) : config(std::move(c)) {
    config.stop = &stop;
    thread = std::thread([this] {
      try {
        ToyActor a(config, 7.f);
        a.connect();
        for (;;) steps += a.step();
      } catch (const net::Stopped&) {
      } catch (const std::exception& e) {
        error = e.what();
      }
    });
  }
  ~GoodActor() {
    stop.store(true);
    thread.join();
  }
  net::ClientConfig config;
  std::atomic<bool> stop{false};
  std::atomic<std::int64_t> steps{0};
  std::string error;
  std::thread thread;
};

net::RemoteServerConfig server(int max_connections) {
  net::RemoteServerConfig c;
  c.num_slots = 8;
  c.max_connections = max_connections;
  c.timeout = std::chrono::seconds(120);
  c.handshake_timeout = std::chrono::seconds(120);  // idle peers would sit in the handshake throughout
  c.heartbeat = std::chrono::milliseconds(100);
  return c;
}

net::ClientConfig patient(net::ClientConfig c) {
  c.timeout = std::chrono::seconds(120);
  c.connect_timeout = std::chrono::seconds(120);
  return c;
}

// Opens `n` idle connections to the server (fewer if the process runs out of descriptors).
std::vector<std::unique_ptr<RawPeer>> flood(boost::asio::io_context& io, std::uint16_t port, int n) {
  std::vector<std::unique_ptr<RawPeer>> peers;
  try {
    for (int i = 0; i < n; ++i) peers.push_back(std::make_unique<RawPeer>(io, port));
  } catch (const std::exception&) {
  }
  return peers;
}

// Polls every peer until `n` of them have been closed by the server.
std::vector<RawReply> until_closed(std::vector<std::unique_ptr<RawPeer>>& peers, int n) {
  std::vector<RawReply> replies(peers.size());
  wait_until([&] {
    int closed = 0;
    for (std::size_t i = 0; i < peers.size(); ++i) closed += peers[i]->poll(replies[i]);
    return closed >= n;
  });
  return replies;
}

}  // namespace

TEST_CASE("connections beyond --max-remote-connections are refused and closed at once", "[net][server]") {
  RemoteRig rig(server(4));
  GoodActor good(patient(rig.client(2)));
  REQUIRE(wait_until([&] { return good.steps.load() > 10; }));
  boost::asio::io_context io;
  auto peers = flood(io, rig.server.port(), 20);
  REQUIRE(peers.size() == 20);
  // The good actor holds one of 4 places; 3 idle peers sit in the handshake
  // (for 120 s), the other 17 are told "busy" and closed without delay.
  const auto replies = until_closed(peers, 17);
  int busy = 0, waiting = 0;
  for (const RawReply& r : replies) {
    if (!r.closed) {
      waiting += r.bytes.empty();
      continue;
    }
    const auto reject = reject_in(r);
    REQUIRE(reject);
    CHECK(reject->code == net::RejectCode::kBusy);
    CHECK_THAT(reject->message, Catch::Contains("--max-remote-connections 4"));
    CHECK(r.ended == boost::asio::error::eof);
    ++busy;
  }
  CHECK(busy == 17);
  CHECK(waiting == 3);
  CHECK(rig.server.held_sockets() == 4);
  const std::int64_t before = good.steps.load();
  CHECK(wait_until([&] { return good.steps.load() > before + 20; }));
  CHECK(good.error.empty());
}

TEST_CASE("a flood of idle connections leaves descriptors for checkpoints and logs", "[net][server]") {
  // Room for 200 more descriptors than are open now. The server keeps 140 of
  // them for the rest of the process, so it holds about 55 sockets; the 100
  // idle peers of the flood (their ends are in this process too) would take
  // 200 if each were held.
  const std::size_t open_now = net::open_descriptors();
  SoftFileLimit limit(open_now + 200);
  REQUIRE(limit.ok);
  auto config = server(1000);  // as if the operator allowed many actors
  config.fd_reserve = 140;
  RemoteRig rig(config);
  const int cap = rig.server.socket_cap();
  REQUIRE(cap >= 2);
  REQUIRE(cap < 100);
  GoodActor good(patient(rig.client(2)));
  REQUIRE(wait_until([&] { return good.steps.load() > 10; }));

  boost::asio::io_context io;
  auto peers = flood(io, rig.server.port(), 100);
  REQUIRE(peers.size() == 100);
  const auto replies = until_closed(peers, 100 + 1 - cap);  // all beyond the cap are refused at once
  CHECK(rig.server.held_sockets() <= cap);
  for (const RawReply& r : replies) {
    if (!r.closed) continue;
    const auto reject = reject_in(r);
    REQUIRE(reject);
    CHECK(reject->code == net::RejectCode::kBusy);
  }

  // While the flood holds: checkpoints and logs can still be written.
  const std::string dir = temp_dir("flood_files");
  std::vector<std::FILE*> files;
  for (int i = 0; i < 8; ++i) {
    const std::string path = dir + "/checkpoint" + std::to_string(i) + ".pt.tmp";
    std::FILE* f = std::fopen(path.c_str(), "wb");
    CHECK(f != nullptr);
    if (f == nullptr) continue;
    CHECK(std::fputs("weights", f) >= 0);
    files.push_back(f);
  }
  for (std::FILE* f : files) CHECK(std::fclose(f) == 0);
  // And training goes on.
  const std::int64_t before = good.steps.load();
  CHECK(wait_until([&] { return good.steps.load() > before + 20; }));
  CHECK(good.error.empty());
}

TEST_CASE("the server outlives running out of descriptors and accepts again after", "[net][server]") {
  RemoteRig rig(server(8));
  const auto port = rig.server.port();
  // Take every descriptor the limit allows, then free one for a peer's end.
  SoftFileLimit limit(net::open_descriptors() + 16);
  REQUIRE(limit.ok);
  std::vector<std::FILE*> hogs;
  while (std::FILE* f = std::fopen("/dev/null", "rb")) hogs.push_back(f);
  REQUIRE(!hogs.empty());
  std::fclose(hogs.back());
  hogs.pop_back();
  // A bare socket: the one descriptor left.
  const int waiting = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(waiting >= 0);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(port);
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(waiting, reinterpret_cast<const sockaddr*>(&to), sizeof(to)) == 0);  // the server cannot accept it
  const std::uint64_t failed_before = rig.server.counters().accept_errors.load();
  REQUIRE(wait_until([&] { return rig.server.counters().accept_errors.load() >= failed_before + 2; }));
  // It backs off between attempts instead of spinning.
  CHECK(rig.server.counters().accept_errors.load() < failed_before + 1000);
  for (std::FILE* f : hogs) std::fclose(f);
  // The waiting connection is accepted after all, and actors are served.
  REQUIRE(wait_until([&] { return rig.server.counters().accepted.load() >= 1; }));
  ::close(waiting);
  ToyActor a(patient(rig.client(1)), 3.f);
  a.connect();
  for (int i = 0; i < 10; ++i) a.step();
  CHECK(a.wrong_actions == 0);
}
