// The remote-actor wire protocol (docs/protocol.md describes it byte by byte).
// Pure encode/decode over byte buffers, no sockets, so both ends and the tests
// share one definition. Every integer and float is little-endian.
//
// A frame is  u32 length | u8 type | body  where length counts the type byte
// and the body. A remote actor opens with HELLO and gets WELCOME or REJECT;
// then it sends one STEP per step of its K environments and gets ACTIONS back.
// Either side may send HEARTBEAT between frames; the learner sends GOODBYE
// before it closes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "seedrl/env/spec.h"

namespace seedrl::net {

inline constexpr std::uint16_t kProtocolVersion = 2;
inline constexpr char kMagic[8] = {'S', 'E', 'E', 'D', 'R', 'L', 'A', 'P'};
inline constexpr std::size_t kHeaderBytes = 5;            // u32 length + u8 type
inline constexpr std::uint32_t kMaxControlFrame = 65536;  // any frame but STEP / ACTIONS
inline constexpr std::size_t kMaxTokenBytes = 1024;
inline constexpr std::size_t kMaxNameBytes = 256;
inline constexpr std::size_t kMaxEnvSettingsBytes = 1024;
inline constexpr int kMaxRank = 8;
inline constexpr std::uint32_t kMaxEnvsPerConnection = 65536;

enum class MsgType : std::uint8_t {
  kHello = 1,
  kWelcome = 2,
  kReject = 3,
  kStep = 4,
  kActions = 5,
  kHeartbeat = 6,
  kGoodbye = 7,
};
const char* msg_type_name(std::uint8_t type);

// REJECT codes. kBusy is worth retrying later; the others are not.
enum class RejectCode : std::uint16_t {
  kBadVersion = 1,
  kBadToken = 2,
  kSpecMismatch = 3,
  kBadRequest = 4,
  kBusy = 5,
};

// GOODBYE codes: kShutdown (the learner stops; a restarted one may come back),
// kFinished (the run reached its frame budget), kProtocolError.
enum class GoodbyeCode : std::uint16_t { kShutdown = 0, kFinished = 1, kProtocolError = 2 };

// A malformed or unexpected frame; what() says what was wrong.
struct ProtocolError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Hello {
  std::uint16_t version = kProtocolVersion;
  std::uint32_t num_envs = 1;
  ArraySpec observation;
  ActionSpec action;
  std::string token;
  std::string env_name;  // informational
  // env/env_settings.h: what the learner's must equal; empty from an actor
  // that is not seedrl's (python/seedrl_client.py), which nothing checks.
  std::string env_settings;
};

struct Welcome {
  std::uint16_t version = kProtocolVersion;
  std::uint32_t first_slot = 0;  // informational
  std::uint32_t heartbeat_ms = 0;
  std::uint32_t timeout_ms = 0;
};

struct Reject {
  RejectCode code = RejectCode::kBadRequest;
  std::string message;
};

struct Goodbye {
  GoodbyeCode code = GoodbyeCode::kShutdown;
  std::string message;
};

// The frame header: how many bytes follow the length field, and the type.
struct FrameHeader {
  std::uint32_t length = 0;  // type byte + body
  std::uint8_t type = 0;
  std::size_t body_bytes() const { return length - 1; }
};
// Throws ProtocolError for a zero length (no room for the type byte).
FrameHeader decode_header(std::span<const std::uint8_t, kHeaderBytes> bytes);

// Encoders append a whole frame (header included) to `out`.
void encode_hello(const Hello& m, std::vector<std::uint8_t>& out);
void encode_welcome(const Welcome& m, std::vector<std::uint8_t>& out);
void encode_reject(const Reject& m, std::vector<std::uint8_t>& out);
void encode_goodbye(const Goodbye& m, std::vector<std::uint8_t>& out);
void encode_heartbeat(std::vector<std::uint8_t>& out);

// Decoders take a frame's body (after the header) and throw ProtocolError
// naming what is wrong: truncated, trailing bytes, bad magic, out-of-range field.
Hello decode_hello(std::span<const std::uint8_t> body);
Welcome decode_welcome(std::span<const std::uint8_t> body);
Reject decode_reject(std::span<const std::uint8_t> body);
Goodbye decode_goodbye(std::span<const std::uint8_t> body);

// STEP and ACTIONS have a fixed size once K and the spec are known, so they
// are written in place into preallocated buffers on the hot path.
// STEP body: f32 reward[K] | u8 flags[K] | observations (K * obs_bytes).
constexpr std::size_t step_body_bytes(std::size_t envs, std::size_t obs_bytes) {
  return envs * (sizeof(float) + 1 + obs_bytes);
}
// ACTIONS body: f32 action[K * action_width].
constexpr std::size_t actions_body_bytes(std::size_t envs, std::size_t action_width) {
  return envs * action_width * sizeof(float);
}
// Writes a header for `type` with a body of `body_bytes` into `out[0, 5)`.
void write_header(MsgType type, std::size_t body_bytes, std::uint8_t* out);

// Checks one env's STEP flags: only the known bits, kFirst excludes the
// end-of-episode bits, and kLifeLost comes only with kTerminated. Returns an error message, or empty when valid.
std::string check_step_flags(std::uint8_t flags);

// Checks an ACTIONS body (action.width() floats per env) against the spec:
// a discrete action is an integer in [0, n), a continuous one is finite (the
// actor clips it to the box). Returns an error message naming the first bad
// env, or empty when all are valid (without allocating: it runs every step).
std::string check_actions(const ActionSpec& action, std::span<const float> actions);

// `text` with control characters (newlines included) replaced by '?': peers'
// strings end up in one-line log messages.
std::string printable(std::string text);

// "HOST:PORT", "[v6addr]:PORT" or "PORT" (loopback). Throws
// std::invalid_argument naming `flag`.
struct HostPort {
  std::string host;
  std::uint16_t port = 0;
};
HostPort parse_host_port(const std::string& text, const std::string& flag);
bool is_loopback_host(const std::string& host);

// The shared secret: the file's content without trailing whitespace. Throws
// std::invalid_argument naming `flag` and the file when unreadable, empty or
// longer than kMaxTokenBytes.
std::string read_token_file(const std::string& path, const std::string& flag);

}  // namespace seedrl::net
