// One remote actor's connection on the learner: it stands in for an actor
// thread. The handshake (remote_session.cc) checks the HELLO and leases env
// slots; the step loop (remote_session_step.cc) hands each STEP to inference
// and sends its ACTIONS back; the endings (remote_session_end.cc) keep the
// deadlines and say GOODBYE or REJECT before the socket closes.
//
// Everything but on_actions() and send_actions_here() (run by the inference
// thread that answers a STEP) runs on the socket's strand.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange unincluded

#include <boost/asio.hpp>

#include "seedrl/actor/episode_tracker.h"
#include "seedrl/env/env_step.h"
#include "seedrl/inference/request_batcher.h"
#include "seedrl/net/protocol.h"

#include "session_host.h"

namespace seedrl::net {

class RemoteSession : public std::enable_shared_from_this<RemoteSession> {
 public:
  RemoteSession(SessionHost& host, boost::asio::ip::tcp::socket socket, std::string peer);

  // Entry points, each posted onto the strand.
  void start();
  void shutdown(GoodbyeCode code);

  auto get_executor() { return socket_.get_executor(); }
  bool was_running() const { return ran_.load(); }

 private:
  using Clock = std::chrono::steady_clock;

  // kIdle: no STEP in inference; kInFlight: one is; kClosed: the session is
  // over (its slots are released once no STEP is in flight).
  enum : std::uint32_t { kIdle = 0, kInFlight = 1, kClosed = 2 };

  // --- reading and the handshake (remote_session.cc) ------------------------
  void read_header();
  void on_header(boost::system::error_code ec);
  void read_body();
  void on_hello();
  void start_running(const Hello& hello);

  // --- stepping (remote_session_step.cc) ------------------------------------
  void on_step();
  void on_actions();
  void release();
  bool send_actions_here();
  void write_actions();
  bool busy();
  void arm_heartbeat();

  // --- deadlines and endings (remote_session_end.cc) ------------------------
  void arm_deadline(std::chrono::milliseconds d) { set_deadline(Clock::now() + d); }
  static std::int64_t to_ns(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
  }
  void set_deadline(Clock::time_point t);
  void wait_deadline();
  bool farewell_due();
  void refuse(RejectCode code, const std::string& why);
  void protocol_error(const std::string& why);
  void lost(boost::system::error_code ec);
  void finish(std::vector<std::uint8_t> frame);
  void close();
  void end(bool graceful, std::vector<std::uint8_t> frame);

  SessionHost& host_;
  boost::asio::ip::tcp::socket socket_;
  boost::asio::steady_timer deadline_, heartbeat_;
  std::atomic<std::int64_t> deadline_ns_{
      std::numeric_limits<std::int64_t>::max()};  // set by strand and inference thread
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
  EpisodeTracker episodes_;  // records into host_.episodes
  Completion completion_;
  std::atomic<std::uint32_t> state_{kIdle};
  std::atomic<bool> ran_{false};                       // past the handshake (read off the strand by remove())
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

}  // namespace seedrl::net
