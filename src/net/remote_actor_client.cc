#include "seedrl/net/remote_actor_client.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <vector>

#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange unincluded

#include <fmt/format.h>
#include <boost/asio.hpp>

namespace seedrl::net {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

class RemoteActorConnection::Impl {
 public:
  explicit Impl(ClientConfig c) : config(std::move(c)), socket(io) {
    const std::size_t K = static_cast<std::size_t>(config.num_envs);
    obs_bytes = config.spec.observation.bytes();
    action_width = static_cast<std::size_t>(config.spec.action.width());
    rewards.assign(K, 0.f);
    flags.assign(K, 0);
    // Floats in a float vector: aligned for any env's observation writes.
    obs_store.assign((K * obs_bytes + sizeof(float) - 1) / sizeof(float), 0.f);
    actions.assign(K * action_width, 0.f);
    write_header(MsgType::kStep, step_body_bytes(K, obs_bytes), step_header.data());
  }

  // Runs the io_context until `done`, the deadline or a stop request.
  void run_until(const bool& done, Clock::duration timeout, const char* what) {
    const auto deadline = Clock::now() + timeout;
    io.restart();
    while (!done) {
      const bool stop = config.stop && config.stop->load();
      if (stop || Clock::now() >= deadline) {
        boost::system::error_code ec;
        socket.close(ec);
        io.restart();
        io.run();  // lets the aborted handlers finish
        if (stop) throw Stopped();
        throw ConnectionLost(fmt::format("{}:{}: {} timed out", config.host, config.port, what));
      }
      io.run_for(std::chrono::milliseconds(100));
      if (io.stopped() && !done) io.restart();
    }
  }

  // After connecting, frames go through plain non-blocking send/recv on the
  // socket's handle, waiting in poll() only when the kernel cannot take or
  // give bytes: one system call per frame in the common case, where driving
  // the io_context cost several per read and write.
  void wait_ready(short events, Clock::time_point deadline, const char* what) {
    for (;;) {
      const bool stop = config.stop && config.stop->load();
      const auto now = Clock::now();
      if (stop || now >= deadline) {
        boost::system::error_code ec;
        socket.close(ec);
        if (stop) throw Stopped();
        throw ConnectionLost(fmt::format("{}:{}: {} timed out", config.host, config.port, what));
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
      pollfd p{socket.native_handle(), events, 0};
      const int r = ::poll(&p, 1, static_cast<int>(std::clamp<std::int64_t>(left, 1, 100)));  // 100 ms: see stop
      if (r > 0) return;
      if (r < 0 && errno != EINTR) throw lost(boost::system::error_code(errno, boost::system::system_category()));
    }
  }

  void read(asio::mutable_buffer buffer, Clock::duration timeout, const char* what) {
    const auto deadline = Clock::now() + timeout;
    auto* p = static_cast<std::uint8_t*>(buffer.data());
    std::size_t got = 0;
    while (got < buffer.size()) {
      const ssize_t n = ::recv(socket.native_handle(), p + got, buffer.size() - got, MSG_DONTWAIT);
      if (n > 0) {
        got += static_cast<std::size_t>(n);
      } else if (n == 0) {
        throw lost(asio::error::eof);
      } else if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
        wait_ready(POLLIN, deadline, what);
      } else {
        throw lost(boost::system::error_code(errno, boost::system::system_category()));
      }
    }
  }

  // Up to four buffers, written as one frame (sendmsg gathers them).
  template <typename Buffers>
  void write(const Buffers& buffers, const char* what) {
    const auto deadline = Clock::now() + config.timeout;
    std::array<iovec, 4> iov{};
    std::size_t count = 0;
    for (auto it = asio::buffer_sequence_begin(buffers); it != asio::buffer_sequence_end(buffers); ++it) {
      const asio::const_buffer b(*it);
      if (b.size() == 0) continue;
      iov.at(count++) = iovec{const_cast<void*>(b.data()), b.size()};
    }
    std::size_t first = 0;
    while (first < count) {
      msghdr msg{};
      msg.msg_iov = iov.data() + first;
      msg.msg_iovlen = count - first;
      ssize_t n = ::sendmsg(socket.native_handle(), &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
          wait_ready(POLLOUT, deadline, what);
          continue;
        }
        throw lost(boost::system::error_code(errno, boost::system::system_category()));
      }
      // Skip what went out, partly written buffer included.
      while (first < count && static_cast<std::size_t>(n) >= iov[first].iov_len)
        n -= static_cast<ssize_t>(iov[first++].iov_len);
      if (first < count) {
        iov[first].iov_base = static_cast<std::uint8_t*>(iov[first].iov_base) + n;
        iov[first].iov_len -= static_cast<std::size_t>(n);
      }
    }
  }

  ConnectionLost lost(boost::system::error_code ec) const {
    return ConnectionLost(fmt::format("{}:{}: {}", config.host, config.port,
                                      ec == asio::error::eof ? "the learner closed the connection" : ec.message()));
  }

  BadFrame bad(const std::string& what) const {
    return BadFrame(fmt::format("learner {}:{} sent a bad frame: {}", config.host, config.port, what));
  }

  // Reads one frame header; GOODBYE and REJECT frames are read and thrown.
  FrameHeader next_header(Clock::duration timeout, const char* what) {
    read(asio::buffer(header), timeout, what);
    FrameHeader h;
    try {
      h = decode_header(std::span<const std::uint8_t, kHeaderBytes>(header));
    } catch (const ProtocolError& e) {
      throw bad(e.what());
    }
    const auto type = static_cast<MsgType>(h.type);
    if (type == MsgType::kGoodbye || type == MsgType::kReject) {
      if (h.length > kMaxControlFrame)
        throw bad(fmt::format("{} frame of {} bytes (max {})", msg_type_name(h.type), h.length, kMaxControlFrame));
      control.resize(h.body_bytes());
      read(asio::buffer(control), timeout, what);
      try {
        if (type == MsgType::kReject) {
          Reject r = decode_reject(control);
          throw Rejected(r.code, fmt::format("{}:{} refused this actor: {}", config.host, config.port, r.message));
        }
        Goodbye g = decode_goodbye(control);
        throw LearnerGone(g.code, fmt::format("{}:{} said goodbye: {}", config.host, config.port, g.message));
      } catch (const ProtocolError& e) {
        throw bad(e.what());
      }
    }
    return h;
  }

  ClientConfig config;
  asio::io_context io;
  tcp::socket socket;
  std::size_t obs_bytes = 0, action_width = 1;
  std::array<std::uint8_t, kHeaderBytes> header{}, step_header{};
  std::vector<float> rewards;
  std::vector<std::uint8_t> flags;
  std::vector<float> obs_store;
  std::vector<float> actions;
  std::vector<std::uint8_t> control;
};

RemoteActorConnection::RemoteActorConnection(ClientConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {}
RemoteActorConnection::~RemoteActorConnection() = default;

Welcome RemoteActorConnection::connect() {
  Impl& s = *impl_;
  const auto& c = s.config;
  boost::system::error_code ec;
  tcp::resolver resolver(s.io);
  const auto endpoints = resolver.resolve(c.host, std::to_string(c.port), ec);
  if (ec) throw ConnectionLost(fmt::format("{}:{}: cannot resolve: {}", c.host, c.port, ec.message()));
  {
    bool done = false;
    boost::system::error_code error;
    asio::async_connect(s.socket, endpoints, [&](boost::system::error_code e, const tcp::endpoint&) {
      error = e;
      done = true;
    });
    s.run_until(done, c.connect_timeout, "connect");
    if (error) throw s.lost(error);
  }
  s.socket.set_option(tcp::no_delay(true), ec);

  Hello hello;
  hello.num_envs = static_cast<std::uint32_t>(c.num_envs);
  hello.observation = c.spec.observation;
  hello.action = c.spec.action;
  hello.token = c.token;
  hello.env_name = c.env_name;
  hello.env_settings = c.env_settings;
  std::vector<std::uint8_t> frame;
  encode_hello(hello, frame);
  s.write(asio::buffer(frame), "HELLO");
  const FrameHeader h = s.next_header(c.connect_timeout, "handshake");
  if (h.type != static_cast<std::uint8_t>(MsgType::kWelcome))
    throw s.bad(fmt::format("expected WELCOME, got {} (type {})", msg_type_name(h.type), h.type));
  if (h.length > kMaxControlFrame)
    throw s.bad(fmt::format("WELCOME frame of {} bytes (max {})", h.length, kMaxControlFrame));
  s.control.resize(h.body_bytes());
  s.read(asio::buffer(s.control), c.connect_timeout, "handshake");
  Welcome w;
  try {
    w = decode_welcome(s.control);
  } catch (const ProtocolError& e) {
    throw s.bad(e.what());
  }
  if (w.version != kProtocolVersion)
    throw s.bad(fmt::format("WELCOME of protocol version {} (this actor speaks {})", w.version, kProtocolVersion));
  return w;
}

std::span<float> RemoteActorConnection::rewards() { return impl_->rewards; }
std::span<std::uint8_t> RemoteActorConnection::flags() { return impl_->flags; }
std::uint8_t* RemoteActorConnection::obs(int env) {
  return reinterpret_cast<std::uint8_t*>(impl_->obs_store.data()) + static_cast<std::size_t>(env) * impl_->obs_bytes;
}
const float* RemoteActorConnection::actions(int env) const {
  return impl_->actions.data() + static_cast<std::size_t>(env) * impl_->action_width;
}

void RemoteActorConnection::step() {
  Impl& s = *impl_;
  const std::size_t K = s.rewards.size();
  const std::array<asio::const_buffer, 4> out{asio::buffer(s.step_header), asio::buffer(s.rewards),
                                              asio::buffer(s.flags), asio::buffer(s.obs_store.data(), K * s.obs_bytes)};
  s.write(out, "STEP");
  const std::size_t body = actions_body_bytes(K, s.action_width);
  for (;;) {
    const FrameHeader h = s.next_header(s.config.timeout, "waiting for actions");
    if (h.type == static_cast<std::uint8_t>(MsgType::kHeartbeat) && h.length == 1) continue;
    if (h.type != static_cast<std::uint8_t>(MsgType::kActions) || h.body_bytes() != body)
      throw s.bad(fmt::format("expected ACTIONS of {} bytes, got {} (type {}) of {}", body + 1, msg_type_name(h.type),
                              h.type, h.length));
    s.read(asio::buffer(s.actions), s.config.timeout, "reading actions");
    // An action outside the spec would index past an env's tables.
    if (std::string why = check_actions(s.config.spec.action, s.actions); !why.empty()) throw s.bad("ACTIONS " + why);
    return;
  }
}

}  // namespace seedrl::net
