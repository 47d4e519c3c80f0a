#include "seedrl/net/protocol.h"

#include "seedrl/env/env_step.h"
#include "seedrl/io/input_file.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace seedrl::net {

static_assert(std::endian::native == std::endian::little, "the wire format is little-endian; add byte swaps");

namespace {

// Appends little-endian fields (the host is little-endian, checked above).
class Writer {
 public:
  explicit Writer(std::vector<std::uint8_t>& out) : out_(out), start_(out.size()) {
    out_.resize(start_ + kHeaderBytes);
  }
  template <typename T>
  void put(T v) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
    out_.insert(out_.end(), p, p + sizeof(T));
  }
  void bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    out_.insert(out_.end(), b, b + n);
  }
  void str16(std::string_view s) {
    put<std::uint16_t>(static_cast<std::uint16_t>(s.size()));
    bytes(s.data(), s.size());
  }
  // Fills in the header once the body is written.
  void finish(MsgType type) { write_header(type, out_.size() - start_ - kHeaderBytes, out_.data() + start_); }

 private:
  std::vector<std::uint8_t>& out_;
  std::size_t start_;
};

class Reader {
 public:
  Reader(std::span<const std::uint8_t> body, const char* what) : body_(body), what_(what) {}
  template <typename T>
  T get(const char* field) {
    need(sizeof(T), field);
    T v;
    std::memcpy(&v, body_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  std::string str16(const char* field, std::size_t max) {
    const auto n = get<std::uint16_t>(field);
    if (n > max)
      throw ProtocolError(std::string(what_) + ": " + field + " of " + std::to_string(n) + " bytes exceeds " +
                          std::to_string(max));
    need(n, field);
    std::string s(reinterpret_cast<const char*>(body_.data() + pos_), n);
    pos_ += n;
    return s;
  }
  void need(std::size_t n, const char* field) const {
    if (body_.size() - pos_ < n) throw ProtocolError(std::string(what_) + " truncated at " + field);
  }
  void done() const {
    if (pos_ != body_.size())
      throw ProtocolError(std::string(what_) + " has " + std::to_string(body_.size() - pos_) + " trailing bytes");
  }

 private:
  std::span<const std::uint8_t> body_;
  const char* what_;
  std::size_t pos_ = 0;
};

}  // namespace

const char* msg_type_name(std::uint8_t type) {
  switch (static_cast<MsgType>(type)) {
    case MsgType::kHello:
      return "HELLO";
    case MsgType::kWelcome:
      return "WELCOME";
    case MsgType::kReject:
      return "REJECT";
    case MsgType::kStep:
      return "STEP";
    case MsgType::kActions:
      return "ACTIONS";
    case MsgType::kHeartbeat:
      return "HEARTBEAT";
    case MsgType::kGoodbye:
      return "GOODBYE";
  }
  return "unknown";
}

void write_header(MsgType type, std::size_t body_bytes, std::uint8_t* out) {
  const auto length = static_cast<std::uint32_t>(body_bytes + 1);
  std::memcpy(out, &length, 4);
  out[4] = static_cast<std::uint8_t>(type);
}

FrameHeader decode_header(std::span<const std::uint8_t, kHeaderBytes> bytes) {
  FrameHeader h;
  std::memcpy(&h.length, bytes.data(), 4);
  h.type = bytes[4];
  if (h.length == 0) throw ProtocolError("frame length 0 (it must count the type byte)");
  return h;
}

void encode_hello(const Hello& m, std::vector<std::uint8_t>& out) {
  Writer w(out);
  w.bytes(kMagic, sizeof(kMagic));
  w.put<std::uint16_t>(m.version);
  w.put<std::uint16_t>(0);  // reserved
  w.put<std::uint32_t>(m.num_envs);
  w.put<std::uint8_t>(static_cast<std::uint8_t>(m.observation.dtype));
  w.put<std::uint8_t>(static_cast<std::uint8_t>(m.observation.shape.size()));
  for (auto d : m.observation.shape) w.put<std::uint32_t>(static_cast<std::uint32_t>(d));
  w.put<std::uint8_t>(static_cast<std::uint8_t>(m.action.kind));
  if (m.action.is_discrete()) {
    w.put<std::uint32_t>(static_cast<std::uint32_t>(m.action.num_actions));
  } else {
    w.put<std::uint32_t>(static_cast<std::uint32_t>(m.action.dim));
    for (int i = 0; i < m.action.dim; ++i) w.put<float>(m.action.low.at(i));
    for (int i = 0; i < m.action.dim; ++i) w.put<float>(m.action.high.at(i));
  }
  w.str16(m.token);
  w.str16(m.env_name);
  w.str16(m.env_settings);
  w.finish(MsgType::kHello);
}

Hello decode_hello(std::span<const std::uint8_t> body) {
  Reader r(body, "HELLO");
  r.need(sizeof(kMagic), "magic");
  if (std::memcmp(body.data(), kMagic, sizeof(kMagic)) != 0)
    throw ProtocolError("HELLO: bad magic (not a seedrl actor)");
  for (std::size_t i = 0; i < sizeof(kMagic); ++i) r.get<std::uint8_t>("magic");
  Hello m;
  m.version = r.get<std::uint16_t>("version");
  // Magic and version sit at the same offsets in every version; the rest is
  // only read when the version is ours.
  if (m.version != kProtocolVersion) return m;
  r.get<std::uint16_t>("reserved");
  m.num_envs = r.get<std::uint32_t>("num_envs");
  if (m.num_envs == 0 || m.num_envs > kMaxEnvsPerConnection)
    throw ProtocolError("HELLO: num_envs " + std::to_string(m.num_envs) + " outside [1, " +
                        std::to_string(kMaxEnvsPerConnection) + "]");
  const auto dtype = r.get<std::uint8_t>("obs_dtype");
  if (dtype > static_cast<std::uint8_t>(DType::kUInt8))
    throw ProtocolError("HELLO: unknown obs dtype " + std::to_string(dtype));
  m.observation.dtype = static_cast<DType>(dtype);
  const auto rank = r.get<std::uint8_t>("obs_rank");
  if (rank > kMaxRank)
    throw ProtocolError("HELLO: obs rank " + std::to_string(rank) + " exceeds " + std::to_string(kMaxRank));
  std::uint64_t numel = 1;
  for (int i = 0; i < rank; ++i) {
    const auto d = r.get<std::uint32_t>("obs_shape");
    if (d == 0 || d > (1u << 24)) throw ProtocolError("HELLO: obs dimension " + std::to_string(d) + " out of range");
    numel *= d;
    if (numel > (1ull << 28)) throw ProtocolError("HELLO: observation too large");
    m.observation.shape.push_back(d);
  }
  const auto kind = r.get<std::uint8_t>("action_kind");
  if (kind > 1) throw ProtocolError("HELLO: unknown action kind " + std::to_string(kind));
  const auto n = r.get<std::uint32_t>("action_n");
  if (n == 0 || n > 65536) throw ProtocolError("HELLO: action size " + std::to_string(n) + " out of range");
  if (kind == 0) {
    m.action = ActionSpec::discrete(static_cast<int>(n));
  } else {
    r.need(std::size_t{8} * n, "action bounds");
    std::vector<float> low(n), high(n);
    for (auto& v : low) v = r.get<float>("action_low");
    for (auto& v : high) v = r.get<float>("action_high");
    m.action = ActionSpec::box(std::move(low), std::move(high));
  }
  m.token = r.str16("token", kMaxTokenBytes);
  m.env_name = printable(r.str16("env_name", kMaxNameBytes));
  m.env_settings = printable(r.str16("env_settings", kMaxEnvSettingsBytes));
  r.done();
  return m;
}

void encode_welcome(const Welcome& m, std::vector<std::uint8_t>& out) {
  Writer w(out);
  w.put<std::uint16_t>(m.version);
  w.put<std::uint32_t>(m.first_slot);
  w.put<std::uint32_t>(m.heartbeat_ms);
  w.put<std::uint32_t>(m.timeout_ms);
  w.finish(MsgType::kWelcome);
}

Welcome decode_welcome(std::span<const std::uint8_t> body) {
  Reader r(body, "WELCOME");
  Welcome m;
  m.version = r.get<std::uint16_t>("version");
  m.first_slot = r.get<std::uint32_t>("first_slot");
  m.heartbeat_ms = r.get<std::uint32_t>("heartbeat_ms");
  m.timeout_ms = r.get<std::uint32_t>("timeout_ms");
  r.done();
  return m;
}

void encode_reject(const Reject& m, std::vector<std::uint8_t>& out) {
  Writer w(out);
  w.put<std::uint16_t>(static_cast<std::uint16_t>(m.code));
  w.str16(std::string_view(m.message).substr(0, 1024));
  w.finish(MsgType::kReject);
}

Reject decode_reject(std::span<const std::uint8_t> body) {
  Reader r(body, "REJECT");
  Reject m;
  const auto code = r.get<std::uint16_t>("code");
  if (code < static_cast<std::uint16_t>(RejectCode::kBadVersion) ||
      code > static_cast<std::uint16_t>(RejectCode::kBusy))
    throw ProtocolError("REJECT: unknown code " + std::to_string(code));
  m.code = static_cast<RejectCode>(code);
  m.message = printable(r.str16("message", 1024));
  r.done();
  return m;
}

void encode_goodbye(const Goodbye& m, std::vector<std::uint8_t>& out) {
  Writer w(out);
  w.put<std::uint16_t>(static_cast<std::uint16_t>(m.code));
  w.str16(std::string_view(m.message).substr(0, 1024));
  w.finish(MsgType::kGoodbye);
}

Goodbye decode_goodbye(std::span<const std::uint8_t> body) {
  Reader r(body, "GOODBYE");
  Goodbye m;
  const auto code = r.get<std::uint16_t>("code");
  if (code > static_cast<std::uint16_t>(GoodbyeCode::kProtocolError))
    throw ProtocolError("GOODBYE: unknown code " + std::to_string(code));
  m.code = static_cast<GoodbyeCode>(code);
  m.message = printable(r.str16("message", 1024));
  r.done();
  return m;
}

void encode_heartbeat(std::vector<std::uint8_t>& out) {
  Writer w(out);
  w.finish(MsgType::kHeartbeat);
}

std::string check_step_flags(std::uint8_t flags) {
  if (flags & ~0xFu) return "unknown flag bits " + std::to_string(flags);
  if ((flags & kFirst) && (flags & (kTerminated | kTruncated)))
    return "flags " + std::to_string(flags) + " mark a first step as last";
  if ((flags & kLifeLost) && !(flags & kTerminated))
    return "flags " + std::to_string(flags) + " mark a lost life on a step that is not terminal";
  return {};
}

std::string check_actions(const ActionSpec& action, std::span<const float> actions) {
  const std::size_t width = static_cast<std::size_t>(action.width());
  for (std::size_t i = 0; i < actions.size(); ++i) {
    const float a = actions[i];
    if (action.is_discrete()) {
      // NaN fails the range check too.
      if (!(a >= 0.f && a < static_cast<float>(action.num_actions)) || a != std::trunc(a))
        return fmt::format("env {}: action {} is not one of 0..{}", i / width, a, action.num_actions - 1);
    } else if (!std::isfinite(a)) {
      return fmt::format("env {}: action component {} is {}", i / width, i % width, a);
    }
  }
  return {};
}

std::string printable(std::string text) {
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return text;
}

HostPort parse_host_port(const std::string& text, const std::string& flag) {
  auto bad = [&](const std::string& why) {
    return std::invalid_argument(flag + ": '" + text + "' " + why + " (expected HOST:PORT or PORT)");
  };
  HostPort hp;
  std::string port;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':') throw bad("is malformed");
    hp.host = text.substr(1, close - 1);
    port = text.substr(close + 2);
  } else if (const auto colon = text.rfind(':'); colon != std::string::npos) {
    hp.host = text.substr(0, colon);
    port = text.substr(colon + 1);
  } else {
    hp.host = "127.0.0.1";
    port = text;
  }
  if (hp.host.empty()) throw bad("has no host");
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (port.empty() || ec != std::errc() || end != port.data() + port.size() || value > 65535)
    throw bad("has no valid port");
  hp.port = static_cast<std::uint16_t>(value);
  return hp;
}

bool is_loopback_host(const std::string& host) {
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

std::string read_token_file(const std::string& path, const std::string& flag) {
  // Room for trailing whitespace; a longer token is refused below.
  std::string token = read_regular_file(path, flag + ":", kMaxTokenBytes + 4096);
  while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back()))) token.pop_back();
  if (token.empty()) throw std::invalid_argument(flag + ": " + path + " is empty");
  if (token.size() > kMaxTokenBytes)
    throw std::invalid_argument(flag + ": " + path + " holds more than " + std::to_string(kMaxTokenBytes) + " bytes");
  return token;
}

}  // namespace seedrl::net
