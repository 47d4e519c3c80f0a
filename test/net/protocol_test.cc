// The remote-actor wire format: every message survives a round trip, and
// every malformed byte string is refused with a ProtocolError, never a crash.
#include <catch2/catch.hpp>
#include <cstring>
#include <limits>

#include "seedrl/env/env_step.h"
#include "seedrl/net/protocol.h"

using namespace seedrl;
using namespace seedrl::net;

namespace {
std::span<const std::uint8_t> body_of(const std::vector<std::uint8_t>& frame) {
  return std::span<const std::uint8_t>(frame).subspan(kHeaderBytes);
}
FrameHeader header_of(const std::vector<std::uint8_t>& frame) {
  return decode_header(std::span<const std::uint8_t, kHeaderBytes>(frame.data(), kHeaderBytes));
}
Hello cartpole_hello() {
  Hello h;
  h.num_envs = 3;
  h.observation = ArraySpec{{4}, DType::kFloat32};
  h.action = ActionSpec::discrete(2);
  h.token = "s3cret";
  h.env_name = "cartpole";
  return h;
}
}  // namespace

TEST_CASE("HELLO round-trips discrete and continuous specs", "[net][protocol]") {
  Hello a = cartpole_hello();
  Hello b;
  b.env_settings = "--env minatar:breakout --sticky-action-prob 0.1 --difficulty-ramping on";
  b.num_envs = 65536;
  b.observation = ArraySpec{{10, 10, 4}, DType::kUInt8};
  b.action = ActionSpec::box({-1.f, -2.f}, {1.f, 2.f});
  for (const Hello& h : {a, b}) {
    std::vector<std::uint8_t> frame;
    encode_hello(h, frame);
    const FrameHeader fh = header_of(frame);
    CHECK(fh.type == static_cast<std::uint8_t>(MsgType::kHello));
    CHECK(fh.length == frame.size() - 4);
    const Hello d = decode_hello(body_of(frame));
    CHECK(d.version == kProtocolVersion);
    CHECK(d.num_envs == h.num_envs);
    CHECK(d.observation == h.observation);
    CHECK(d.action == h.action);
    CHECK(d.token == h.token);
    CHECK(d.env_name == h.env_name);
    CHECK(d.env_settings == h.env_settings);
  }
}

TEST_CASE("HELLO's bytes are laid out as docs/protocol.md says", "[net][protocol]") {
  std::vector<std::uint8_t> frame;
  encode_hello(cartpole_hello(), frame);
  // 8 magic + 2 version + 2 reserved + 4 K + 1 dtype + 1 rank + 4 dim + 1 kind + 4 n + 2+6 token + 2+8 name
  // + 2+0 settings
  const std::size_t body = 8 + 2 + 2 + 4 + 1 + 1 + 4 + 1 + 4 + 2 + 6 + 2 + 8 + 2;
  REQUIRE(frame.size() == 5 + body);
  const std::uint8_t expect_head[] = {static_cast<std::uint8_t>(body + 1),
                                      0,
                                      0,
                                      0,
                                      1,
                                      'S',
                                      'E',
                                      'E',
                                      'D',
                                      'R',
                                      'L',
                                      'A',
                                      'P',
                                      2,
                                      0,
                                      0,
                                      0,
                                      3,
                                      0,
                                      0,
                                      0,
                                      0,
                                      1,
                                      4,
                                      0,
                                      0,
                                      0,
                                      0,
                                      2,
                                      0,
                                      0,
                                      0,
                                      6,
                                      0};
  CHECK(std::memcmp(frame.data(), expect_head, sizeof(expect_head)) == 0);
  const std::uint8_t expect_tail[] = {8, 0, 'c', 'a', 'r', 't', 'p', 'o', 'l', 'e', 0, 0};
  CHECK(std::memcmp(frame.data() + frame.size() - sizeof(expect_tail), expect_tail, sizeof(expect_tail)) == 0);
}

TEST_CASE("control messages round-trip", "[net][protocol]") {
  std::vector<std::uint8_t> f;
  encode_welcome({kProtocolVersion, 17, 1000, 30000}, f);
  const Welcome w = decode_welcome(body_of(f));
  CHECK((w.first_slot == 17 && w.heartbeat_ms == 1000 && w.timeout_ms == 30000));
  f.clear();
  encode_reject({RejectCode::kSpecMismatch, "observation float32[3] differs"}, f);
  const Reject r = decode_reject(body_of(f));
  CHECK(r.code == RejectCode::kSpecMismatch);
  CHECK(r.message == "observation float32[3] differs");
  f.clear();
  encode_goodbye({GoodbyeCode::kFinished, "done"}, f);
  const Goodbye g = decode_goodbye(body_of(f));
  CHECK(g.code == GoodbyeCode::kFinished);
  CHECK(g.message == "done");
  f.clear();
  encode_heartbeat(f);
  CHECK(f == std::vector<std::uint8_t>{1, 0, 0, 0, 6});
}

TEST_CASE("a peer's strings and codes are checked before they reach a log line", "[net][protocol]") {
  std::vector<std::uint8_t> f;
  encode_goodbye({GoodbyeCode::kShutdown, "line one\nline two\r\x1b[31m"}, f);
  CHECK(decode_goodbye(body_of(f)).message == "line one?line two??[31m");
  f.clear();
  encode_reject({RejectCode::kBusy, "busy\n"}, f);
  CHECK(decode_reject(body_of(f)).message == "busy?");
  Hello h = cartpole_hello();
  h.env_name = "cart\npole";
  f.clear();
  encode_hello(h, f);
  CHECK(decode_hello(body_of(f)).env_name == "cart?pole");
  h.env_settings = "--env\tcartpole\n";
  f.clear();
  encode_hello(h, f);
  CHECK(decode_hello(body_of(f)).env_settings == "--env?cartpole?");
  h.env_settings.assign(kMaxEnvSettingsBytes + 1, 'x');
  f.clear();
  encode_hello(h, f);
  CHECK_THROWS_WITH(decode_hello(body_of(f)), Catch::Contains("env_settings"));
  // Codes no learner sends.
  f.clear();
  encode_goodbye({static_cast<GoodbyeCode>(3), ""}, f);
  CHECK_THROWS_WITH(decode_goodbye(body_of(f)), Catch::Contains("unknown code 3"));
  f.clear();
  encode_reject({static_cast<RejectCode>(0), ""}, f);
  CHECK_THROWS_WITH(decode_reject(body_of(f)), Catch::Contains("unknown code 0"));
}

TEST_CASE("actions are checked against the spec", "[net][protocol]") {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const ActionSpec discrete = ActionSpec::discrete(3);
  CHECK(check_actions(discrete, std::vector<float>{0.f, 1.f, 2.f}).empty());
  CHECK(check_actions(discrete, std::vector<float>{0.f, 3.f}) == "env 1: action 3 is not one of 0..2");
  for (float bad : {-1.f, 1.5f, nan, inf, -inf, 1e9f, -0.5f}) {
    CAPTURE(bad);
    CHECK_THAT(check_actions(discrete, std::vector<float>{1.f, 1.f, bad}), Catch::StartsWith("env 2: action"));
  }
  const ActionSpec box = ActionSpec::box({-1.f, -1.f}, {1.f, 1.f});
  CHECK(check_actions(box, std::vector<float>{5.f, -7.f, 0.f, 0.f}).empty());  // clipped by the actor
  CHECK(check_actions(box, std::vector<float>{0.f, 0.f, 0.f, nan}) == "env 1: action component 1 is nan");
  CHECK(check_actions(box, std::vector<float>{-inf, 0.f}) == "env 0: action component 0 is -inf");
}

TEST_CASE("every truncation and any trailing byte of HELLO is refused", "[net][protocol]") {
  std::vector<std::uint8_t> frame;
  encode_hello(cartpole_hello(), frame);
  const auto body = body_of(frame);
  for (std::size_t n = 0; n < body.size(); ++n) {
    INFO("truncated to " << n << " bytes");
    CHECK_THROWS_AS(decode_hello(body.first(n)), ProtocolError);
  }
  std::vector<std::uint8_t> longer(body.begin(), body.end());
  longer.push_back(0);
  CHECK_THROWS_WITH(decode_hello(longer), Catch::Contains("trailing"));
}

TEST_CASE("malformed HELLO fields are refused with a reason", "[net][protocol]") {
  std::vector<std::uint8_t> frame;
  encode_hello(cartpole_hello(), frame);
  auto mutate = [&](std::size_t offset, std::uint8_t value) {
    std::vector<std::uint8_t> b(frame.begin() + kHeaderBytes, frame.end());
    b.at(offset) = value;
    return b;
  };
  CHECK_THROWS_WITH(decode_hello(mutate(0, 'X')), Catch::Contains("magic"));
  CHECK_THROWS_WITH(decode_hello(mutate(12, 0)), Catch::Contains("num_envs"));  // K = 0
  CHECK_THROWS_WITH(decode_hello(mutate(16, 9)), Catch::Contains("dtype"));
  CHECK_THROWS_WITH(decode_hello(mutate(17, 200)), Catch::Contains("rank"));
  CHECK_THROWS_WITH(decode_hello(mutate(18, 0)), Catch::Contains("dimension"));
  CHECK_THROWS_WITH(decode_hello(mutate(22, 7)), Catch::Contains("action kind"));
  CHECK_THROWS_WITH(decode_hello(mutate(28, 0xFF)), Catch::Contains("token"));  // token length high byte
  // Another version: only magic and version are read, so the caller can say so.
  const Hello v = decode_hello(mutate(8, 9));
  CHECK(v.version == 9);
  // Garbage that is not a seedrl actor at all.
  const std::string http = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
  CHECK_THROWS_AS(decode_hello(std::span(reinterpret_cast<const std::uint8_t*>(http.data()), http.size())),
                  ProtocolError);
}

TEST_CASE("frame headers and step flags are checked", "[net][protocol]") {
  const std::uint8_t zero[5] = {0, 0, 0, 0, 4};
  CHECK_THROWS_AS(decode_header(std::span<const std::uint8_t, 5>(zero)), ProtocolError);
  const std::uint8_t huge[5] = {0xFF, 0xFF, 0xFF, 0x7F, 4};
  CHECK(decode_header(std::span<const std::uint8_t, 5>(huge)).length == 0x7FFFFFFFu);
  CHECK(check_step_flags(0).empty());
  CHECK(check_step_flags(1).empty());
  CHECK(check_step_flags(2).empty());
  CHECK(check_step_flags(6).empty());
  CHECK_FALSE(check_step_flags(3).empty());  // first and terminated
  CHECK(check_step_flags(kTerminated | kLifeLost).empty());
  CHECK_FALSE(check_step_flags(kLifeLost).empty());               // a lost life that does not end the step
  CHECK_FALSE(check_step_flags(kTruncated | kLifeLost).empty());  // ... or only truncates it
  CHECK_FALSE(check_step_flags(16).empty());                      // unknown bit
  CHECK(step_body_bytes(3, 16) == 3 * (4 + 1 + 16));
  CHECK(actions_body_bytes(3, 2) == 24);
}

TEST_CASE("learner addresses parse or name the flag", "[net][protocol]") {
  auto hp = parse_host_port("10.0.0.2:7000", "--connect");
  CHECK((hp.host == "10.0.0.2" && hp.port == 7000));
  hp = parse_host_port("7001", "--remote-actors");
  CHECK((hp.host == "127.0.0.1" && hp.port == 7001));
  hp = parse_host_port("[::1]:80", "--connect");
  CHECK((hp.host == "::1" && hp.port == 80));
  CHECK_THROWS_WITH(parse_host_port("host:99999", "--connect"), Catch::Contains("--connect"));
  CHECK_THROWS_WITH(parse_host_port(":80", "--remote-actors"), Catch::Contains("--remote-actors"));
  CHECK_THROWS_AS(parse_host_port("host:", "--connect"), std::invalid_argument);
  CHECK(is_loopback_host("127.0.0.1"));
  CHECK(is_loopback_host("localhost"));
  CHECK_FALSE(is_loopback_host("0.0.0.0"));
}
