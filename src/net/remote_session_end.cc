// A remote session's deadlines, and its endings: REJECT, GOODBYE, or a
// silent close, each releasing the socket and, once quiet, the env slots.
#include "remote_session.h"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "graceful_close.h"

namespace seedrl::net {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

// Peer input discarded after a GOODBYE or REJECT, beyond the STEP body a
// running actor may have been sending.
constexpr std::size_t kLingerBytes = std::size_t{1} << 20;

double seconds(std::chrono::milliseconds ms) { return static_cast<double>(ms.count()) / 1000.0; }

}  // namespace

// --- deadlines -----------------------------------------------------------------

// Every step moves the deadline. Moving it later only stores the time: the
// timer fires at the old expiry and waits on, instead of a cancel and an
// aborted handler per step (three per round trip when re-armed each time).
void RemoteSession::set_deadline(Clock::time_point t) {
  deadline_ns_.store(to_ns(t), std::memory_order_relaxed);
  if (deadline_waiting_ && deadline_.expiry() <= t) return;
  deadline_.expires_at(t);  // cancels a pending wait; its handler returns on operation_aborted
  wait_deadline();
}

void RemoteSession::wait_deadline() {
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
      const auto recheck = now + std::max(self->host_.config.timeout, self->host_.config.handshake_timeout);
      self->deadline_.expires_at(at < to_ns(recheck) ? Clock::time_point(std::chrono::nanoseconds(at)) : recheck);
      return self->wait_deadline();
    }
    if (self->farewell_) return self->close();  // the frame being written never went out
    if (!self->running_) {
      self->host_.refused(
          self->peer_,
          spdlog::fmt_lib::format("no complete HELLO within {} s", seconds(self->host_.config.handshake_timeout)),
          RefusalLog::kSilent);
    } else {
      spdlog::warn("remote actor {} timed out: nothing received for {} s", self->peer_,
                   seconds(self->host_.config.timeout));
    }
    self->close();
  });
}

// --- endings -------------------------------------------------------------------

// After a write: an ending that waited for it goes ahead now.
bool RemoteSession::farewell_due() {
  if (!farewell_) return false;
  std::vector<std::uint8_t> frame = std::move(*farewell_);
  farewell_.reset();
  finish(std::move(frame));
  return true;
}

void RemoteSession::refuse(RejectCode code, const std::string& why) {
  host_.refused(peer_, why, RefusalLog::kBadHello);
  std::vector<std::uint8_t> frame;
  encode_reject({code, why}, frame);
  finish(std::move(frame));
}

void RemoteSession::protocol_error(const std::string& why) {
  spdlog::warn("remote actor {} dropped: protocol error: {}", peer_, why);
  std::vector<std::uint8_t> frame;
  encode_goodbye({GoodbyeCode::kProtocolError, why}, frame);
  finish(std::move(frame));
}

void RemoteSession::lost(boost::system::error_code ec) {
  if (ec != asio::error::operation_aborted) {
    if (running_)
      spdlog::warn("remote actor {} disconnected: {}", peer_,
                   ec == asio::error::eof ? "connection closed" : ec.message());
    else
      host_.refused(peer_,
                    spdlog::fmt_lib::format("connection ended during the handshake ({})",
                                            ec == asio::error::eof ? "truncated HELLO" : ec.message()),
                    RefusalLog::kSilent);
  }
  close();
}

// Ends the connection saying why: `frame` (a GOODBYE or REJECT, or empty)
// goes out whole, after the frame being written if any, and the socket
// closes gracefully (graceful_close.h) so the peer gets to read it.
void RemoteSession::finish(std::vector<std::uint8_t> frame) {
  if (closed_ || farewell_) return;
  {
    std::lock_guard lock(write_mu_);
    if (writing_) {
      farewell_ = std::move(frame);  // said when the frame being written is out
    } else {
      socket_open_ = false;  // see close()
    }
  }
  if (farewell_) return arm_deadline(host_.config.linger);  // or given up on
  end(true, std::move(frame));
}

// Ends the connection without a word (the peer is gone, or silent).
void RemoteSession::close() {
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
void RemoteSession::end(bool graceful, std::vector<std::uint8_t> frame) {
  closed_ = true;
  boost::system::error_code ec;
  deadline_.cancel();
  heartbeat_.cancel();
  if (graceful && host_.sockets.linger()) {
    socket_.cancel(ec);  // a pending read ends with operation_aborted
    close_gracefully(std::move(socket_), std::move(frame), {kLingerBytes + rx_.size(), host_.config.linger},
                     [&sockets = host_.sockets] { sockets.release(true); });
  } else {
    if (graceful) {
      close_at_once(socket_, frame);
    } else {
      socket_.shutdown(tcp::socket::shutdown_both, ec);
      socket_.close(ec);
    }
    host_.sockets.release(false);
  }
  if (running_) {
    host_.counters.dropped.fetch_add(1, std::memory_order_relaxed);
    // With a STEP in flight, on_actions() releases the slots when it returns.
    if (state_.exchange(kClosed, std::memory_order_acq_rel) != kInFlight) release();
  } else {
    asio::post(host_.io, [self = shared_from_this()] { self->host_.sessions.remove(self.get()); });
  }
}

}  // namespace seedrl::net
