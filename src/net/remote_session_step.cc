// A remote session's step loop: each STEP goes to inference, and the
// inference thread that answers it sends the ACTIONS back.
#include "remote_session.h"

#include <sys/socket.h>

#include <cstring>

#include <spdlog/spdlog.h>

#include "step_check.h"

namespace seedrl::net {

namespace asio = boost::asio;

void RemoteSession::on_step() {
  if (auto bad = check_step(rx_.data(), steps_, host_.obs_floats, episodes_); !bad.empty()) return protocol_error(bad);
  const std::int64_t stepped = episodes_.add(steps_);
  host_.frames.fetch_add(stepped, std::memory_order_relaxed);
  host_.counters.steps.fetch_add(static_cast<std::uint64_t>(stepped), std::memory_order_relaxed);
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
  host_.slots.batcher(device_).submit_async(steps_, completion_);
}

// Every row of the STEP has its action (on the inference thread that ran
// the last of them), or the batcher closed (on the thread that closed it,
// perhaps under its lock, or here from submit_async).
void RemoteSession::on_actions() {
  auto self = shared_from_this();  // a close() on the strand must not free us mid-send
  if (!completion_.closed()) {
    const std::size_t K = steps_.size(), aw = host_.action_width;
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
void RemoteSession::release() {
  if (!released_) {
    released_ = true;
    for (int slot : slots_) host_.on_release(slot);
    host_.slots.give_back(slots_, device_);
    spdlog::info("remote actor {} gone: {} env slots freed, partial unrolls dropped", peer_, slots_.size());
  }
  if (closed_ && !removed_) {
    removed_ = true;
    asio::post(host_.io, [self = shared_from_this()] { self->host_.sessions.remove(self.get()); });
  }
}

// Inference thread. The ACTIONS frame is small and the socket's send buffer
// is almost always empty, so it usually goes out in one non-blocking send
// from here. Returns false when the strand must write the rest (tx_sent_ bytes
// are out); true when sent, or left for the heartbeat being written.
bool RemoteSession::send_actions_here() {
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
    deadline_ns_.store(to_ns(Clock::now() + host_.config.timeout), std::memory_order_relaxed);
    return true;
  }
  if (n > 0) tx_sent_ = static_cast<std::size_t>(n);
  writing_ = true;  // an error shows up again in the strand's write
  return false;
}

// Strand: writes what send_actions_here() could not, with writing_ set.
void RemoteSession::write_actions() {
  if (closed_) return;
  arm_deadline(host_.config.timeout);  // a peer that stops reading cannot pin us
  asio::async_write(socket_, asio::buffer(tx_) + tx_sent_,
                    [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                      {
                        std::lock_guard lock(self->write_mu_);
                        self->writing_ = false;
                        self->busy_ = false;
                      }
                      if (self->closed_ || self->farewell_due()) return;
                      if (ec) return self->lost(ec);
                      self->arm_deadline(self->host_.config.timeout);
                    });
}

bool RemoteSession::busy() {
  std::lock_guard lock(write_mu_);
  return busy_;
}

// Tells a waiting actor the learner is alive while its STEP is in inference.
void RemoteSession::arm_heartbeat() {
  heartbeat_.expires_after(host_.config.heartbeat);
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

}  // namespace seedrl::net
