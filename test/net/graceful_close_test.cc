// A peer that breaks the protocol is told why before the learner closes, even
// when it has sent more than the learner read: the GOODBYE or REJECT arrives
// whole and the connection ends with EOF, not a reset (closing a socket with
// unread input makes the kernel answer with one, which can destroy the reason).
#include "remote_rig.h"  // first: LibTorch may bring glog's CHECK, Catch's must win

#include <catch2/catch.hpp>

#include "raw_peer.h"

using namespace seedrl;
using namespace seedrl::test;

namespace {

net::RemoteServerConfig patient_server() {
  net::RemoteServerConfig c;
  c.num_slots = 8;
  c.timeout = std::chrono::seconds(120);
  c.handshake_timeout = std::chrono::seconds(120);
  c.linger = std::chrono::seconds(120);  // the peer's EOF, not the timer, ends each linger
  return c;
}

// More than the server reads of a bad frame, less than it discards.
std::vector<std::uint8_t> with_junk(std::vector<std::uint8_t> bytes) {
  for (int i = 0; i < 256 * 1024; ++i) bytes.push_back(static_cast<std::uint8_t>(i * 7));
  return bytes;
}

// The whole reply is one frame of `type`, followed by a clean close.
void check_told_then_closed(const RawReply& r, net::MsgType type) {
  CHECK(!r.write_error);  // the server read (and dropped) everything sent
  REQUIRE(r.closed);
  CHECK(r.ended == boost::asio::error::eof);  // not connection_reset
  REQUIRE(r.bytes.size() >= net::kHeaderBytes);
  CHECK(r.bytes[4] == static_cast<std::uint8_t>(type));
  std::uint32_t length;
  std::memcpy(&length, r.bytes.data(), 4);
  CHECK(r.bytes.size() == length + 4);
}

}  // namespace

TEST_CASE("a protocol error is answered with its reason and a clean close, however much the peer sent",
          "[net][server]") {
  RemoteRig rig(patient_server());
  const auto port = rig.server.port();
  constexpr int kTries = 50;  // one reset in a few connections must show

  SECTION("during the handshake: REJECT") {
    const std::string http = "GET / HTTP/1.1\r\nHost: learner\r\n\r\n";
    for (int i = 0; i < kTries; ++i) {
      RawPeer peer(port);
      const RawReply r = peer.exchange(with_junk({http.begin(), http.end()}));
      check_told_then_closed(r, net::MsgType::kReject);
      const auto reject = reject_in(r);
      REQUIRE(reject);
      CHECK(reject->code == net::RejectCode::kBadRequest);
      CHECK_THAT(reject->message, Catch::Contains("expected HELLO"));
    }
  }

  SECTION("after the handshake: GOODBYE") {
    net::Hello hello;
    hello.observation = rig.spec.observation;
    hello.action = rig.spec.action;
    std::vector<std::uint8_t> hello_frame;
    net::encode_hello(hello, hello_frame);
    for (int i = 0; i < kTries; ++i) {
      RawPeer peer(port);
      boost::asio::write(peer.socket(), boost::asio::buffer(hello_frame));
      const auto welcome = peer.read_frame();
      REQUIRE(welcome[4] == static_cast<std::uint8_t>(net::MsgType::kWelcome));
      // A second HELLO instead of a STEP.
      const RawReply r = peer.exchange(with_junk(hello_frame));
      check_told_then_closed(r, net::MsgType::kGoodbye);
      const auto bye = goodbye_in(r);
      REQUIRE(bye);
      CHECK(bye->code == net::GoodbyeCode::kProtocolError);
      CHECK_THAT(bye->message, Catch::Contains("unexpected HELLO"));
    }
    // Every slot came back, every socket is closed.
    CHECK(wait_until([&] { return rig.server.free_slots() == 8 && rig.server.held_sockets() == 0; }));
  }
}
