// A remote session's start, its reading of frames and its handshake.
#include "remote_session.h"

#include <spdlog/spdlog.h>

#include "seedrl/env/env_settings.h"
#include "seedrl/util/constant_time_equal.h"

namespace seedrl::net {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

RemoteSession::RemoteSession(SessionHost& host, tcp::socket socket, std::string peer)
    : host_(host),
      socket_(std::move(socket)),
      deadline_(socket_.get_executor()),
      heartbeat_(socket_.get_executor()),
      peer_(std::move(peer)),
      episodes_(host.episodes) {
  encode_heartbeat(heartbeat_frame_);
}

void RemoteSession::start() {
  arm_deadline(host_.config.handshake_timeout);
  read_header();
}

void RemoteSession::shutdown(GoodbyeCode code) {
  if (!running_) return close();
  std::vector<std::uint8_t> frame;
  encode_goodbye({code, code == GoodbyeCode::kFinished ? "training finished" : "learner shutting down"}, frame);
  finish(std::move(frame));
}

// --- reading -----------------------------------------------------------------
void RemoteSession::read_header() {
  asio::async_read(socket_, asio::buffer(header_),
                   [self = shared_from_this()](boost::system::error_code ec, std::size_t) { self->on_header(ec); });
}

void RemoteSession::on_header(boost::system::error_code ec) {
  if (closed_ || farewell_) return;
  if (ec) return lost(ec);
  FrameHeader h;
  try {
    h = decode_header(std::span<const std::uint8_t, kHeaderBytes>(header_));
  } catch (const ProtocolError& e) {
    return running_ ? protocol_error(e.what()) : refuse(RejectCode::kBadRequest, e.what());
  }
  if (!running_) {
    if (h.type != static_cast<std::uint8_t>(MsgType::kHello))
      return refuse(RejectCode::kBadRequest,
                    spdlog::fmt_lib::format("expected HELLO, got {} (type {})", msg_type_name(h.type), h.type));
    if (h.length > kMaxControlFrame)
      return refuse(RejectCode::kBadRequest,
                    spdlog::fmt_lib::format("oversized HELLO frame of {} bytes (max {})", h.length, kMaxControlFrame));
    rx_.resize(h.body_bytes());
    return read_body();
  }
  if (h.type == static_cast<std::uint8_t>(MsgType::kHeartbeat)) {
    if (h.length != 1)
      return protocol_error(spdlog::fmt_lib::format("HEARTBEAT frame of {} bytes (expected 1)", h.length));
    if (!busy()) arm_deadline(host_.config.timeout);
    return read_header();
  }
  if (h.type != static_cast<std::uint8_t>(MsgType::kStep))
    return protocol_error(spdlog::fmt_lib::format("unexpected {} frame (type {})", msg_type_name(h.type), h.type));
  // The next header is read while inference has the step, but its body
  // would land in the observations being batched.
  if (busy()) return protocol_error("STEP sent before the ACTIONS of the previous one");
  if (h.body_bytes() != rx_.size())
    return protocol_error(spdlog::fmt_lib::format("STEP frame of {} bytes, expected {} for {} envs", h.length,
                                                  rx_.size() + 1, steps_.size()));
  read_body();
}

void RemoteSession::read_body() {
  asio::async_read(socket_, asio::buffer(rx_), [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
    if (self->closed_ || self->farewell_) return;
    if (ec) return self->lost(ec);
    self->running_ ? self->on_step() : self->on_hello();
  });
}

// --- handshake ---------------------------------------------------------------
void RemoteSession::on_hello() {
  Hello hello;
  try {
    hello = decode_hello(rx_);
  } catch (const ProtocolError& e) {
    return refuse(RejectCode::kBadRequest, e.what());
  }
  if (hello.version != kProtocolVersion)
    return refuse(RejectCode::kBadVersion, spdlog::fmt_lib::format("protocol version {} (this learner speaks {})",
                                                                   hello.version, kProtocolVersion));
  if (!host_.config.token.empty() && !constant_time_equal(hello.token, host_.config.token))
    return refuse(RejectCode::kBadToken, "bad token");
  const EnvSpec& spec = host_.spec;
  if (!(hello.observation == spec.observation))
    return refuse(RejectCode::kSpecMismatch,
                  spdlog::fmt_lib::format("observation {} differs from the learner's {} ({})",
                                          hello.observation.to_string(), spec.observation.to_string(), spec.name));
  if (!(hello.action == spec.action))
    return refuse(RejectCode::kSpecMismatch,
                  spdlog::fmt_lib::format("action {} differs from the learner's {} ({})", hello.action.to_string(),
                                          spec.action.to_string(), spec.name));
  if (!hello.env_settings.empty() && !host_.config.env_settings.empty())
    if (const std::string differs =
            env_settings_mismatch(hello.env_settings, host_.config.env_settings, "the learner's");
        !differs.empty())
      return refuse(RejectCode::kSpecMismatch, "env: " + differs);
  const std::size_t K = hello.num_envs;
  slots_.reserve(K);
  device_ = host_.slots.lease(K, slots_);
  if (device_ < 0)
    return refuse(RejectCode::kBusy,
                  spdlog::fmt_lib::format("{} envs asked for, not enough free remote slots (--max-remote-envs {})", K,
                                          host_.config.num_slots));
  start_running(hello);
}

void RemoteSession::start_running(const Hello& hello) {
  const std::size_t K = slots_.size(), ob = host_.obs_bytes, aw = host_.action_width;
  // Everything the step loop touches is sized here, once.
  rx_.assign(step_body_bytes(K, ob), 0);
  tx_.assign(kHeaderBytes + actions_body_bytes(K, aw), 0);
  write_header(MsgType::kActions, actions_body_bytes(K, aw), tx_.data());
  actions_.assign(K * aw, 0.f);
  steps_.resize(K);
  episodes_.reset(K);
  for (std::size_t k = 0; k < K; ++k) {
    steps_[k].slot = slots_[k];
    steps_[k].obs = rx_.data() + K * (sizeof(float) + 1) + k * ob;
    steps_[k].action = actions_.data() + k * aw;
  }
  running_ = true;
  ran_.store(true);
  host_.sessions.count_running();
  host_.counters.sessions.fetch_add(1, std::memory_order_relaxed);
  spdlog::info("remote actor {} connected: {} envs of {} on slots {}..{}{}", peer_, K,
               hello.env_name.empty() ? std::string("?") : hello.env_name, slots_.front(), slots_.back(),
               host_.slots.devices() > 1 ? spdlog::fmt_lib::format(", inference device {}", device_) : "");
  Welcome w;
  w.first_slot = static_cast<std::uint32_t>(slots_.front());
  w.heartbeat_ms = static_cast<std::uint32_t>(host_.config.heartbeat.count());
  w.timeout_ms = static_cast<std::uint32_t>(host_.config.timeout.count());
  control_.clear();
  encode_welcome(w, control_);
  completion_.on_done = [this] { on_actions(); };
  {
    std::lock_guard lock(write_mu_);
    writing_ = true;
  }
  asio::async_write(socket_, asio::buffer(control_),
                    [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                      {
                        std::lock_guard lock(self->write_mu_);
                        self->writing_ = false;
                      }
                      if (self->closed_ || self->farewell_due()) return;
                      if (ec) return self->lost(ec);
                      self->arm_deadline(self->host_.config.timeout);
                      self->arm_heartbeat();
                      self->read_header();
                    });
}

}  // namespace seedrl::net
