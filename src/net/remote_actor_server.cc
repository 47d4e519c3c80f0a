#include "seedrl/net/remote_actor_server.h"

#include <sys/socket.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <condition_variable>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange unincluded

#include <boost/asio.hpp>
#include <spdlog/spdlog.h>

#include "graceful_close.h"
#include "log_throttle.h"
#include "socket_budget.h"

namespace seedrl::net {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {
class Session;

// Peer input discarded after a GOODBYE or REJECT, beyond the STEP body a
// running actor may have been sending.
constexpr std::size_t kLingerBytes = std::size_t{1} << 20;

// Whether the `n` floats at `p` (a STEP body: not necessarily aligned) are
// all finite. A NaN observation would reach the learner's loss and, through
// the next checkpoint, replace a good model with a broken one.
bool all_finite(const std::uint8_t* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    float x;
    std::memcpy(&x, p + i * sizeof(float), sizeof(float));
    if (!std::isfinite(x)) return false;
  }
  return true;
}
}  // namespace

// Owns the io_context, its threads, the acceptor, the env-slot pool and every
// live connection. Sessions reach it through plain member access.
class RemoteActorServer::Impl {
 public:
  Impl(RemoteServerConfig config, EnvSpec spec, std::vector<RequestBatcher*> batchers, EpisodeStats& episodes,
       std::atomic<std::int64_t>& frames, SlotRelease on_release)
      : config(std::move(config)), spec(std::move(spec)), batchers(std::move(batchers)), episodes(episodes),
        frames(frames), on_release(std::move(on_release)), acceptor(io), retry_timer(io) {
    if (this->batchers.empty()) throw std::invalid_argument("remote actors: no inference batcher to serve them");
    obs_bytes = this->spec.observation.bytes();
    if (this->spec.observation.dtype == DType::kFloat32) obs_floats = this->spec.observation.numel();
    action_width = static_cast<std::size_t>(this->spec.action.width());
    for (int i = this->config.num_slots - 1; i >= 0; --i) free.push_back(this->config.first_slot + i);
    load.assign(this->batchers.size(), 0);
    for (std::size_t d = 0; d < load.size() && d < this->config.local_envs.size(); ++d) load[d] = this->config.local_envs[d];
  }

  void start();
  void do_accept();
  void refused(const std::string& peer, const std::string& why, RefusalLog::Kind kind) {
    counters.refused.fetch_add(1, std::memory_order_relaxed);
    refusal_log.log(peer, why, kind);
  }
  // Answers a connection beyond the limits REJECT busy and closes it at once.
  void refuse_at_once(tcp::socket& socket, const std::string& peer, const std::string& why);
  void request_stop(GoodbyeCode code);
  void join();
  // Leases k slots for a new session and picks the inference device that
  // serves all of them: the one with the fewest live envs, local ones
  // included. A session's envs stay on one device, so its STEP is one submit.
  // Returns the device, or -1 when fewer than k slots are free.
  int lease(std::size_t k, std::vector<int>& out) {
    std::lock_guard lock(mu);
    if (free.size() < k) return -1;
    for (std::size_t i = 0; i < k; ++i) {
      out.push_back(free.back());
      free.pop_back();
    }
    const int device = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
    load[device] += static_cast<int>(k);
    batchers[device]->add_live_envs(static_cast<int>(k));  // inference batches may now wait for them
    return device;
  }
  void give_back(const std::vector<int>& slots, int device) {
    std::lock_guard lock(mu);
    free.insert(free.end(), slots.rbegin(), slots.rend());
    load[device] -= static_cast<int>(slots.size());
    batchers[device]->add_live_envs(-static_cast<int>(slots.size()));
  }
  // Forgets a finished session (on an I/O thread), after it released its slots.
  void remove(Session* s);

  RemoteServerConfig config;
  EnvSpec spec;
  std::size_t obs_bytes = 0, action_width = 1;
  std::size_t obs_floats = 0;  // checked for NaN and infinities; 0 for image (uint8) observations
  std::vector<RequestBatcher*> batchers;  // one per inference device
  EpisodeStats& episodes;
  std::atomic<std::int64_t>& frames;
  SlotRelease on_release;
  RemoteServerCounters counters;

  asio::io_context io;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work;
  tcp::acceptor acceptor;
  asio::steady_timer retry_timer;
  std::vector<std::thread> io_threads;
  std::uint16_t bound_port = 0;
  bool started = false;
  std::atomic<bool> stopping{false};
  GoodbyeCode goodbye = GoodbyeCode::kShutdown;

  mutable std::mutex mu;
  std::condition_variable cv;
  std::vector<int> free;                                   // guarded by mu
  std::vector<int> load;                                   // live envs per device; guarded by mu
  std::map<Session*, std::shared_ptr<Session>> sessions;   // guarded by mu
  int running = 0;                                         // sessions past the handshake; guarded by mu
  SocketBudget sockets;  // of sessions, open or lingering
  RefusalLog refusal_log;
  LogThrottle accept_error_log{std::chrono::milliseconds(10000)};  // accept handler only
};

namespace {

std::string describe(const tcp::endpoint& ep) {
  std::string s = ep.address().to_string();
  return (ep.address().is_v6() ? "[" + s + "]" : s) + ":" + std::to_string(ep.port());
}

double seconds(std::chrono::milliseconds ms) { return static_cast<double>(ms.count()) / 1000.0; }

// One connection. Everything but on_actions() and send_actions_here() (run by
// the inference thread that answers a STEP) runs on the socket's strand.
class Session : public std::enable_shared_from_this<Session> {
 public:
  using Impl = RemoteActorServer::Impl;
  Session(Impl& server, tcp::socket socket, std::string peer)
      : server_(server), socket_(std::move(socket)), deadline_(socket_.get_executor()),
        heartbeat_(socket_.get_executor()), peer_(std::move(peer)) {
    encode_heartbeat(heartbeat_frame_);
  }

  // Entry points, each posted onto the strand.
  void start() {
    arm_deadline(server_.config.handshake_timeout);
    read_header();
  }
  void shutdown(GoodbyeCode code) {
    if (!running_) return close();
    std::vector<std::uint8_t> frame;
    encode_goodbye({code, code == GoodbyeCode::kFinished ? "training finished" : "learner shutting down"}, frame);
    finish(std::move(frame));
  }

  // After a write: an ending that waited for it goes ahead now.
  bool farewell_due() {
    if (!farewell_) return false;
    std::vector<std::uint8_t> frame = std::move(*farewell_);
    farewell_.reset();
    finish(std::move(frame));
    return true;
  }

  auto get_executor() { return socket_.get_executor(); }
  bool was_running() const { return ran_.load(); }

 private:
  // kIdle: no STEP in inference; kInFlight: one is; kClosed: the session is
  // over (its slots are released once no STEP is in flight).
  enum : std::uint32_t { kIdle = 0, kInFlight = 1, kClosed = 2 };

  // --- reading -------------------------------------------------------------
  void read_header() {
    asio::async_read(socket_, asio::buffer(header_), [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
      self->on_header(ec);
    });
  }

  void on_header(boost::system::error_code ec) {
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
        return refuse(RejectCode::kBadRequest, spdlog::fmt_lib::format("expected HELLO, got {} (type {})", msg_type_name(h.type), h.type));
      if (h.length > kMaxControlFrame)
        return refuse(RejectCode::kBadRequest, spdlog::fmt_lib::format("oversized HELLO frame of {} bytes (max {})", h.length, kMaxControlFrame));
      rx_.resize(h.body_bytes());
      return read_body();
    }
    if (h.type == static_cast<std::uint8_t>(MsgType::kHeartbeat)) {
      if (h.length != 1) return protocol_error(spdlog::fmt_lib::format("HEARTBEAT frame of {} bytes (expected 1)", h.length));
      if (!busy()) arm_deadline(server_.config.timeout);
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

  void read_body() {
    asio::async_read(socket_, asio::buffer(rx_), [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
      if (self->closed_ || self->farewell_) return;
      if (ec) return self->lost(ec);
      self->running_ ? self->on_step() : self->on_hello();
    });
  }

  // --- handshake -----------------------------------------------------------
  void on_hello() {
    Hello hello;
    try {
      hello = decode_hello(rx_);
    } catch (const ProtocolError& e) {
      return refuse(RejectCode::kBadRequest, e.what());
    }
    if (hello.version != kProtocolVersion)
      return refuse(RejectCode::kBadVersion,
                    spdlog::fmt_lib::format("protocol version {} (this learner speaks {})", hello.version, kProtocolVersion));
    if (!server_.config.token.empty() && !constant_time_equal(hello.token, server_.config.token))
      return refuse(RejectCode::kBadToken, "bad token");
    const EnvSpec& spec = server_.spec;
    if (!(hello.observation == spec.observation))
      return refuse(RejectCode::kSpecMismatch, spdlog::fmt_lib::format("observation {} differs from the learner's {} ({})",
                                                           hello.observation.to_string(), spec.observation.to_string(), spec.name));
    if (!(hello.action == spec.action))
      return refuse(RejectCode::kSpecMismatch, spdlog::fmt_lib::format("action {} differs from the learner's {} ({})",
                                                           hello.action.to_string(), spec.action.to_string(), spec.name));
    const std::size_t K = hello.num_envs;
    slots_.reserve(K);
    device_ = server_.lease(K, slots_);
    if (device_ < 0)
      return refuse(RejectCode::kBusy, spdlog::fmt_lib::format("{} envs asked for, not enough free remote slots (--max-remote-envs {})",
                                                   K, server_.config.num_slots));
    start_running(hello);
  }

  void start_running(const Hello& hello) {
    const std::size_t K = slots_.size(), ob = server_.obs_bytes, aw = server_.action_width;
    // Everything the step loop touches is sized here, once.
    rx_.assign(step_body_bytes(K, ob), 0);
    tx_.assign(kHeaderBytes + actions_body_bytes(K, aw), 0);
    write_header(MsgType::kActions, actions_body_bytes(K, aw), tx_.data());
    actions_.assign(K * aw, 0.f);
    steps_.resize(K);
    returns_.assign(K, 0.0);
    lengths_.assign(K, 0);
    expect_first_.assign(K, 1);
    for (std::size_t k = 0; k < K; ++k) {
      steps_[k].slot = slots_[k];
      steps_[k].obs = rx_.data() + K * (sizeof(float) + 1) + k * ob;
      steps_[k].action = actions_.data() + k * aw;
    }
    running_ = true;
    ran_.store(true);
    {
      std::lock_guard lock(server_.mu);
      ++server_.running;
    }
    server_.counters.sessions.fetch_add(1, std::memory_order_relaxed);
    spdlog::info("remote actor {} connected: {} envs of {} on slots {}..{}{}", peer_, K,
                 hello.env_name.empty() ? std::string("?") : hello.env_name, slots_.front(), slots_.back(),
                 server_.batchers.size() > 1 ? spdlog::fmt_lib::format(", inference device {}", device_) : "");
    Welcome w;
    w.first_slot = static_cast<std::uint32_t>(slots_.front());
    w.heartbeat_ms = static_cast<std::uint32_t>(server_.config.heartbeat.count());
    w.timeout_ms = static_cast<std::uint32_t>(server_.config.timeout.count());
    control_.clear();
    encode_welcome(w, control_);
    completion_.on_done = [this] { on_actions(); };
    {
      std::lock_guard lock(write_mu_);
      writing_ = true;
    }
    asio::async_write(socket_, asio::buffer(control_), [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
      {
        std::lock_guard lock(self->write_mu_);
        self->writing_ = false;
      }
      if (self->closed_ || self->farewell_due()) return;
      if (ec) return self->lost(ec);
      self->arm_deadline(self->server_.config.timeout);
      self->arm_heartbeat();
      self->read_header();
    });
  }

  // --- stepping ------------------------------------------------------------
  void on_step() {
    const std::size_t K = steps_.size();
    const std::uint8_t* flags = rx_.data() + K * sizeof(float);
    for (std::size_t k = 0; k < K; ++k) {
      float reward;
      std::memcpy(&reward, rx_.data() + k * sizeof(float), sizeof(float));
      if (auto bad = check_step_flags(flags[k]); !bad.empty())
        return protocol_error(spdlog::fmt_lib::format("env {}: {}", k, bad));
      if (expect_first_[k] && !(flags[k] & kFirst))
        return protocol_error(spdlog::fmt_lib::format("env {}: step after an episode end (or the first) lacks the FIRST flag", k));
      if (!std::isfinite(reward)) return protocol_error(spdlog::fmt_lib::format("env {}: non-finite reward", k));
      if (!all_finite(static_cast<const std::uint8_t*>(steps_[k].obs), server_.obs_floats))
        return protocol_error(spdlog::fmt_lib::format("env {}: non-finite observation", k));
      steps_[k].flags = flags[k];
      steps_[k].reward = reward;
      expect_first_[k] = is_last(flags[k]);
    }
    std::int64_t stepped = 0;
    for (std::size_t k = 0; k < K; ++k) {
      const EnvStep& st = steps_[k];
      if (st.flags & kFirst) continue;  // a reset, not a step
      ++stepped;
      returns_[k] += st.reward;
      ++lengths_[k];
      if (is_last(st.flags)) {
        server_.episodes.record(returns_[k], lengths_[k]);
        returns_[k] = 0;
        lengths_[k] = 0;
      }
    }
    server_.frames.fetch_add(stepped, std::memory_order_relaxed);
    server_.counters.steps.fetch_add(static_cast<std::uint64_t>(stepped), std::memory_order_relaxed);
    {
      std::lock_guard lock(write_mu_);
      busy_ = true;
    }
    set_deadline(Clock::time_point::max());  // parked while inference has the step
    std::uint32_t idle = kIdle;
    // Failing, the batcher has closed: the run is ending, and the GOODBYE of
    // request_stop() ends this session (the actor, without its actions,
    // waits for it, kept alive by heartbeats).
    if (!state_.compare_exchange_strong(idle, kInFlight, std::memory_order_acq_rel)) return read_header();
    // The actor sends nothing but heartbeats until it has its actions, so the
    // next header can be awaited now. The inference thread that answers the
    // rows sends the actions (on_actions): no thread of ours sleeps per
    // connection, and a slow learner still holds the actor back.
    read_header();
    server_.batchers[device_]->submit_async(steps_, completion_);
  }

  // Every row of the STEP has its action (on the inference thread that ran
  // the last of them), or the batcher closed (on the thread that closed it,
  // perhaps under its lock, or here from submit_async).
  void on_actions() {
    auto self = shared_from_this();  // a close() on the strand must not free us mid-send
    if (!completion_.closed()) {
      const std::size_t K = steps_.size(), aw = server_.action_width;
      std::memcpy(tx_.data() + kHeaderBytes, actions_.data(), K * aw * sizeof(float));
      std::uint32_t in_flight = kInFlight;
      if (state_.compare_exchange_strong(in_flight, kIdle, std::memory_order_acq_rel)) {
        if (!send_actions_here()) asio::post(socket_.get_executor(), [self] { self->write_actions(); });
        return;
      }
    }
    // Closed while in flight, or the batcher closed: no STEP of ours will be
    // in inference again. The connection stays until close() (GOODBYE).
    state_.store(kClosed, std::memory_order_release);
    asio::post(socket_.get_executor(), [self] { self->release(); });
  }

  // Once no STEP of ours is in flight: the slots are quiet, so their partial
  // unrolls and recurrent state can go before the slots are leased again.
  // Once also closed, the server forgets the session. Strand only.
  void release() {
    if (!released_) {
      released_ = true;
      for (int slot : slots_) server_.on_release(slot);
      server_.give_back(slots_, device_);
      spdlog::info("remote actor {} gone: {} env slots freed, partial unrolls dropped", peer_, slots_.size());
    }
    if (closed_ && !removed_) {
      removed_ = true;
      asio::post(server_.io, [self = shared_from_this()] { self->server_.remove(self.get()); });
    }
  }

  // Inference thread. The ACTIONS frame is small and the socket's send buffer
  // is almost always empty, so it usually goes out in one non-blocking send
  // from here. Returns false when the strand must write the rest (tx_sent_ bytes
  // are out); true when sent, or left for the heartbeat being written.
  bool send_actions_here() {
    std::lock_guard lock(write_mu_);
    if (!socket_open_) return true;  // closed: close() has taken over
    if (writing_) {
      actions_pending_ = true;  // after the heartbeat in flight
      return true;
    }
    tx_sent_ = 0;
    const ssize_t n = ::send(socket_.native_handle(), tx_.data(), tx_.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n == static_cast<ssize_t>(tx_.size())) {
      busy_ = false;
      deadline_ns_.store(to_ns(Clock::now() + server_.config.timeout), std::memory_order_relaxed);
      return true;
    }
    if (n > 0) tx_sent_ = static_cast<std::size_t>(n);
    writing_ = true;  // an error shows up again in the strand's write
    return false;
  }

  // Strand: writes what send_actions_here() could not, with writing_ set.
  void write_actions() {
    if (closed_) return;
    arm_deadline(server_.config.timeout);  // a peer that stops reading cannot pin us
    asio::async_write(socket_, asio::buffer(tx_) + tx_sent_, [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
      {
        std::lock_guard lock(self->write_mu_);
        self->writing_ = false;
        self->busy_ = false;
      }
      if (self->closed_ || self->farewell_due()) return;
      if (ec) return self->lost(ec);
      self->arm_deadline(self->server_.config.timeout);
    });
  }

  bool busy() {
    std::lock_guard lock(write_mu_);
    return busy_;
  }

  // Tells a waiting actor the learner is alive while its STEP is in inference.
  void arm_heartbeat() {
    heartbeat_.expires_after(server_.config.heartbeat);
    heartbeat_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
      if (ec || self->closed_) return;
      bool beat = false;
      {
        std::lock_guard lock(self->write_mu_);
        if (self->busy_ && !self->writing_) beat = self->writing_ = true;
      }
      if (beat) {
        asio::async_write(self->socket_, asio::buffer(self->heartbeat_frame_),
                          [self](boost::system::error_code ec2, std::size_t) {
                            bool actions = false;
                            {
                              std::lock_guard lock(self->write_mu_);
                              actions = std::exchange(self->actions_pending_, false);
                              self->tx_sent_ = 0;
                              self->writing_ = actions;  // the actions' write follows at once
                            }
                            if (self->closed_) return;
                            if (ec2) return self->lost(ec2);
                            if (actions) return self->write_actions();
                            self->farewell_due();
                          });
      }
      self->arm_heartbeat();
    });
  }

  // --- deadlines and endings -------------------------------------------------
  void arm_deadline(std::chrono::milliseconds d) { set_deadline(Clock::now() + d); }

  // Every step moves the deadline. Moving it later only stores the time: the
  // timer fires at the old expiry and waits on, instead of a cancel and an
  // aborted handler per step (three per round trip when re-armed each time).
  static std::int64_t to_ns(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
  }

  void set_deadline(Clock::time_point t) {
    deadline_ns_.store(to_ns(t), std::memory_order_relaxed);
    if (deadline_waiting_ && deadline_.expiry() <= t) return;
    deadline_.expires_at(t);  // cancels a pending wait; its handler returns on operation_aborted
    wait_deadline();
  }

  void wait_deadline() {
    deadline_waiting_ = true;
    deadline_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
      if (ec == asio::error::operation_aborted) return;  // a newer wait replaced this one
      self->deadline_waiting_ = false;
      if (self->closed_) return;
      // The inference thread may have moved the deadline (after sending actions): a
      // parked one is looked at again after one timeout.
      const auto now = Clock::now();
      const std::int64_t at = self->deadline_ns_.load(std::memory_order_relaxed);
      if (to_ns(now) < at) {
        const auto recheck = now + std::max(self->server_.config.timeout, self->server_.config.handshake_timeout);
        self->deadline_.expires_at(at < to_ns(recheck) ? Clock::time_point(std::chrono::nanoseconds(at)) : recheck);
        return self->wait_deadline();
      }
      if (self->farewell_) return self->close();  // the frame being written never went out
      if (!self->running_) {
        self->server_.refused(self->peer_, spdlog::fmt_lib::format("no complete HELLO within {} s",
                                                                    seconds(self->server_.config.handshake_timeout)),
                              RefusalLog::kSilent);
      } else {
        spdlog::warn("remote actor {} timed out: nothing received for {} s", self->peer_,
                     seconds(self->server_.config.timeout));
      }
      self->close();
    });
  }

  void refuse(RejectCode code, const std::string& why) {
    server_.refused(peer_, why, RefusalLog::kBadHello);
    std::vector<std::uint8_t> frame;
    encode_reject({code, why}, frame);
    finish(std::move(frame));
  }

  void protocol_error(const std::string& why) {
    spdlog::warn("remote actor {} dropped: protocol error: {}", peer_, why);
    std::vector<std::uint8_t> frame;
    encode_goodbye({GoodbyeCode::kProtocolError, why}, frame);
    finish(std::move(frame));
  }

  void lost(boost::system::error_code ec) {
    if (ec != asio::error::operation_aborted) {
      if (running_)
        spdlog::warn("remote actor {} disconnected: {}", peer_, ec == asio::error::eof ? "connection closed" : ec.message());
      else
        server_.refused(peer_, spdlog::fmt_lib::format("connection ended during the handshake ({})",
                                                      ec == asio::error::eof ? "truncated HELLO" : ec.message()),
                        RefusalLog::kSilent);
    }
    close();
  }

  // Ends the connection saying why: `frame` (a GOODBYE or REJECT, or empty)
  // goes out whole, after the frame being written if any, and the socket
  // closes gracefully (graceful_close.h) so the peer gets to read it.
  void finish(std::vector<std::uint8_t> frame) {
    if (closed_ || farewell_) return;
    {
      std::lock_guard lock(write_mu_);
      if (writing_) {
        farewell_ = std::move(frame);  // said when the frame being written is out
      } else {
        socket_open_ = false;  // see close()
      }
    }
    if (farewell_) return arm_deadline(server_.config.linger);  // or given up on
    end(true, std::move(frame));
  }

  // Ends the connection without a word (the peer is gone, or silent).
  void close() {
    if (closed_) return;
    {
      // send_actions_here() uses the native handle: never after it is closed (and
      // perhaps reused by another connection).
      std::lock_guard lock(write_mu_);
      socket_open_ = false;
    }
    end(false, {});
  }

  // The socket is ours alone (socket_open_ is false).
  void end(bool graceful, std::vector<std::uint8_t> frame) {
    closed_ = true;
    boost::system::error_code ec;
    deadline_.cancel();
    heartbeat_.cancel();
    if (graceful && server_.sockets.linger()) {
      socket_.cancel(ec);  // a pending read ends with operation_aborted
      close_gracefully(std::move(socket_), std::move(frame), {kLingerBytes + rx_.size(), server_.config.linger},
                       [&sockets = server_.sockets] { sockets.release(true); });
    } else {
      if (graceful) {
        close_at_once(socket_, frame);
      } else {
        socket_.shutdown(tcp::socket::shutdown_both, ec);
        socket_.close(ec);
      }
      server_.sockets.release(false);
    }
    if (running_) {
      server_.counters.dropped.fetch_add(1, std::memory_order_relaxed);
      // With a STEP in flight, on_actions() releases the slots when it returns.
      if (state_.exchange(kClosed, std::memory_order_acq_rel) != kInFlight) release();
    } else {
      asio::post(server_.io, [self = shared_from_this()] { self->server_.remove(self.get()); });
    }
  }

  Impl& server_;
  tcp::socket socket_;
  asio::steady_timer deadline_, heartbeat_;
  std::atomic<std::int64_t> deadline_ns_{std::numeric_limits<std::int64_t>::max()};  // set by strand and inference thread
  bool deadline_waiting_ = false;
  std::string peer_;
  std::array<std::uint8_t, kHeaderBytes> header_{};
  std::vector<std::uint8_t> rx_;       // HELLO body, then the STEP body (observations read in place)
  std::vector<std::uint8_t> tx_;       // the ACTIONS frame
  std::vector<std::uint8_t> control_;  // WELCOME
  std::vector<std::uint8_t> heartbeat_frame_;
  std::vector<int> slots_;
  int device_ = -1;  // the inference device serving every slot of the session
  std::vector<EnvStep> steps_;
  std::vector<float> actions_;
  std::vector<double> returns_;
  std::vector<std::int64_t> lengths_;
  std::vector<std::uint8_t> expect_first_;
  Completion completion_;
  std::atomic<std::uint32_t> state_{kIdle};
  std::atomic<bool> ran_{false};        // past the handshake (read off the strand by remove())
  std::optional<std::vector<std::uint8_t>> farewell_;  // an ending waiting for a write (strand only)
  // Shared by the strand and the inference thread's direct sends.
  std::mutex write_mu_;
  bool socket_open_ = true;
  bool writing_ = false;          // a write is in flight on the strand
  bool busy_ = false;             // a STEP is in inference; its ACTIONS are not out yet
  bool actions_pending_ = false;  // ACTIONS wait for the heartbeat being written
  std::size_t tx_sent_ = 0;       // ACTIONS bytes send_actions_here() sent
  // Strand-only state.
  bool running_ = false, closed_ = false, released_ = false, removed_ = false;
};

}  // namespace

void RemoteActorServer::Impl::start() {
  boost::system::error_code ec;
  const auto address = asio::ip::make_address(config.host == "localhost" ? "127.0.0.1" : config.host, ec);
  auto fail = [&](const std::string& why) {
    return std::invalid_argument(spdlog::fmt_lib::format("--remote-actors: cannot listen on {}:{}: {}", config.host, config.port, why));
  };
  if (ec) throw fail("not an IP address");
  const tcp::endpoint ep(address, config.port);
  acceptor.open(ep.protocol(), ec);
  if (!ec) acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor.bind(ep, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) throw fail(ec.message());
  bound_port = acceptor.local_endpoint().port();
  sockets.start(config.fd_reserve, config.max_connections);  // lingering sockets are bounded like open ones
  work.emplace(io.get_executor());
  do_accept();
  for (int i = 0; i < std::max(1, config.io_threads); ++i) io_threads.emplace_back([this] { io.run(); });
  started = true;
  spdlog::info("remote actors: listening on {}:{} ({} env slots from {}, at most {} connections{})", config.host,
               bound_port, config.num_slots, config.first_slot, config.max_connections,
               config.token.empty() ? "" : ", token required");
  if (sockets.cap() < 2 * config.max_connections)
    spdlog::warn("remote actors: only {} sockets fit the open-file limit beside the descriptors kept for the rest of "
                 "the process (ulimit -n)", sockets.cap());
}

void RemoteActorServer::Impl::do_accept() {
  acceptor.async_accept(asio::make_strand(io), [this](boost::system::error_code ec, tcp::socket socket) {
    if (stopping.load()) return;
    if (ec) {
      if (ec == asio::error::operation_aborted) return;
      // Out of file descriptors and the like: back off instead of spinning;
      // the waiting connection stays in the backlog.
      counters.accept_errors.fetch_add(1, std::memory_order_relaxed);
      if (std::uint64_t skipped = 0; accept_error_log.allow(skipped))
        spdlog::warn("remote actors: accept failed: {}; retrying{}", ec.message(),
                     skipped ? spdlog::fmt_lib::format(" ({} more failures since the last such line)", skipped) : "");
      retry_timer.expires_after(std::chrono::milliseconds(100));
      retry_timer.async_wait([this](boost::system::error_code e) {
        if (!e && !stopping.load()) do_accept();
      });
      return;
    }
    counters.accepted.fetch_add(1, std::memory_order_relaxed);
    boost::system::error_code pe;
    const auto remote = socket.remote_endpoint(pe);
    const std::string peer = pe ? std::string("unknown peer") : describe(remote);
    socket.set_option(tcp::no_delay(true), pe);
    // Connections beyond the limits are answered and closed here and now: a
    // flood must not hold descriptors (handshaking sessions count as open).
    std::shared_ptr<Session> session;
    std::string busy;
    if (!sockets.take()) {
      busy = spdlog::fmt_lib::format("{} sockets held, all the open-file limit leaves to remote actors", sockets.cap());
    } else {
      std::lock_guard lock(mu);
      if (static_cast<int>(sessions.size()) >= config.max_connections) {
        busy = spdlog::fmt_lib::format("too many connections (--max-remote-connections {})", config.max_connections);
        sockets.release(false);
      } else {
        session = std::make_shared<Session>(*this, std::move(socket), peer);
        sessions.emplace(session.get(), session);
      }
    }
    if (session)
      asio::post(session->get_executor(), [session] { session->start(); });
    else
      refuse_at_once(socket, peer, busy);
    do_accept();
  });
}

void RemoteActorServer::Impl::refuse_at_once(tcp::socket& socket, const std::string& peer, const std::string& why) {
  refused(peer, why, RefusalLog::kSilent);
  std::vector<std::uint8_t> frame;
  encode_reject({RejectCode::kBusy, why}, frame);
  close_at_once(socket, frame);
}

void RemoteActorServer::Impl::remove(Session* s) {
  std::shared_ptr<Session> keep;
  {
    std::lock_guard lock(mu);
    auto it = sessions.find(s);
    if (it == sessions.end()) return;
    keep = std::move(it->second);
    sessions.erase(it);
  }
  {
    std::lock_guard lock(mu);
    if (keep->was_running()) --running;
  }
  cv.notify_all();
}

void RemoteActorServer::Impl::request_stop(GoodbyeCode code) {
  if (!started || stopping.exchange(true)) return;
  goodbye = code;
  asio::post(io, [this, code] {
    boost::system::error_code ec;
    acceptor.close(ec);
    retry_timer.cancel();
    std::vector<std::shared_ptr<Session>> all;
    {
      std::lock_guard lock(mu);
      for (auto& [_, s] : sessions) all.push_back(s);
    }
    for (auto& s : all) asio::post(s->get_executor(), [s, code] { s->shutdown(code); });
  });
}

void RemoteActorServer::Impl::join() {
  if (!started) return;
  request_stop(goodbye);
  {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return sessions.empty(); });
  }
  sockets.wait_all_released();  // lingering ones end within config.linger
  work.reset();
  io.stop();
  for (auto& t : io_threads) t.join();
  io_threads.clear();
  started = false;
}

RemoteActorServer::RemoteActorServer(RemoteServerConfig config, EnvSpec spec, std::vector<RequestBatcher*> batchers,
                                     EpisodeStats& episodes, std::atomic<std::int64_t>& frames, SlotRelease on_release)
    : impl_(std::make_unique<Impl>(std::move(config), std::move(spec), std::move(batchers), episodes, frames,
                                   std::move(on_release))) {}

RemoteActorServer::~RemoteActorServer() {
  request_stop();
  join();
}

void RemoteActorServer::start() { impl_->start(); }
std::uint16_t RemoteActorServer::port() const { return impl_->bound_port; }
void RemoteActorServer::request_stop(GoodbyeCode code) { impl_->request_stop(code); }
void RemoteActorServer::join() { impl_->join(); }

int RemoteActorServer::free_slots() const {
  std::lock_guard lock(impl_->mu);
  return static_cast<int>(impl_->free.size());
}

int RemoteActorServer::held_sockets() const { return impl_->sockets.held(); }
int RemoteActorServer::socket_cap() const { return impl_->sockets.cap(); }

int RemoteActorServer::active_sessions() const {
  std::lock_guard lock(impl_->mu);
  return impl_->running;
}

const RemoteServerCounters& RemoteActorServer::counters() const { return impl_->counters; }

}  // namespace seedrl::net
