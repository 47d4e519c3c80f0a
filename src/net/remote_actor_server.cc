// The server itself: it listens, admits connections within the limits (the
// connection cap and the sockets the open-file limit leaves, fd reserve
// included), and starts and stops. The slots are leased by slot_pool.h, and
// each connection is served by a RemoteSession (remote_session.h).
#include "seedrl/net/remote_actor_server.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange unincluded

#include <spdlog/spdlog.h>
#include <boost/asio.hpp>

#include "graceful_close.h"
#include "log_throttle.h"
#include "remote_session.h"
#include "session_host.h"

namespace seedrl::net {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

// Owns what sessions share (SessionHost: the io_context, the env-slot pool,
// every live connection), the io_context's threads and the acceptor.
class RemoteActorServer::Impl {
 public:
  Impl(RemoteServerConfig config, EnvSpec spec, std::vector<RequestBatcher*> batchers, EpisodeStats& episodes,
       std::atomic<std::int64_t>& frames, SlotRelease on_release)
      : host(std::move(config), std::move(spec), std::move(batchers), episodes, frames, std::move(on_release)),
        acceptor(host.io),
        retry_timer(host.io) {}

  void start();
  void do_accept();
  // Answers a connection beyond the limits REJECT busy and closes it at once.
  void refuse_at_once(tcp::socket& socket, const std::string& peer, const std::string& why);
  void request_stop(GoodbyeCode code);
  void join();

  SessionHost host;
  const RemoteServerConfig& config = host.config;

  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work;
  tcp::acceptor acceptor;
  asio::steady_timer retry_timer;
  std::vector<std::thread> io_threads;
  std::uint16_t bound_port = 0;
  bool started = false;
  std::atomic<bool> stopping{false};
  GoodbyeCode goodbye = GoodbyeCode::kShutdown;
  LogThrottle accept_error_log{std::chrono::milliseconds(10000)};  // accept handler only
};

namespace {

std::string describe(const tcp::endpoint& ep) {
  std::string s = ep.address().to_string();
  return (ep.address().is_v6() ? "[" + s + "]" : s) + ":" + std::to_string(ep.port());
}

}  // namespace

void RemoteActorServer::Impl::start() {
  boost::system::error_code ec;
  const auto address = asio::ip::make_address(config.host == "localhost" ? "127.0.0.1" : config.host, ec);
  auto fail = [&](const std::string& why) {
    return std::invalid_argument(
        spdlog::fmt_lib::format("--remote-actors: cannot listen on {}:{}: {}", config.host, config.port, why));
  };
  if (ec) throw fail("not an IP address");
  const tcp::endpoint ep(address, config.port);
  acceptor.open(ep.protocol(), ec);
  if (!ec) acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor.bind(ep, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) throw fail(ec.message());
  bound_port = acceptor.local_endpoint().port();
  host.sockets.start(config.fd_reserve, config.max_connections);  // lingering sockets are bounded like open ones
  work.emplace(host.io.get_executor());
  do_accept();
  for (int i = 0; i < std::max(1, config.io_threads); ++i) io_threads.emplace_back([this] { host.io.run(); });
  started = true;
  spdlog::info("remote actors: listening on {}:{} ({} env slots from {}, at most {} connections{})", config.host,
               bound_port, config.num_slots, config.first_slot, config.max_connections,
               config.token.empty() ? "" : ", token required");
  if (host.sockets.cap() < 2 * config.max_connections)
    spdlog::warn(
        "remote actors: only {} sockets fit the open-file limit beside the descriptors kept for the rest of "
        "the process (ulimit -n)",
        host.sockets.cap());
}

void RemoteActorServer::Impl::do_accept() {
  acceptor.async_accept(asio::make_strand(host.io), [this](boost::system::error_code ec, tcp::socket socket) {
    if (stopping.load()) return;
    if (ec) {
      if (ec == asio::error::operation_aborted) return;
      // Out of file descriptors and the like: back off instead of spinning;
      // the waiting connection stays in the backlog.
      host.counters.accept_errors.fetch_add(1, std::memory_order_relaxed);
      if (std::uint64_t skipped = 0; accept_error_log.allow(skipped))
        spdlog::warn("remote actors: accept failed: {}; retrying{}", ec.message(),
                     skipped ? spdlog::fmt_lib::format(" ({} more failures since the last such line)", skipped) : "");
      retry_timer.expires_after(std::chrono::milliseconds(100));
      retry_timer.async_wait([this](boost::system::error_code e) {
        if (!e && !stopping.load()) do_accept();
      });
      return;
    }
    host.counters.accepted.fetch_add(1, std::memory_order_relaxed);
    boost::system::error_code pe;
    const auto remote = socket.remote_endpoint(pe);
    const std::string peer = pe ? std::string("unknown peer") : describe(remote);
    socket.set_option(tcp::no_delay(true), pe);
    // Connections beyond the limits are answered and closed here and now: a
    // flood must not hold descriptors (handshaking sessions count as open).
    std::shared_ptr<RemoteSession> session;
    std::string busy;
    if (!host.sockets.take()) {
      busy = spdlog::fmt_lib::format("{} sockets held, all the open-file limit leaves to remote actors",
                                     host.sockets.cap());
    } else {
      session = host.sessions.add(config.max_connections,
                                  [&] { return std::make_shared<RemoteSession>(host, std::move(socket), peer); });
      if (!session) {
        busy = spdlog::fmt_lib::format("too many connections (--max-remote-connections {})", config.max_connections);
        host.sockets.release(false);
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
  host.refused(peer, why, RefusalLog::kSilent);
  std::vector<std::uint8_t> frame;
  encode_reject({RejectCode::kBusy, why}, frame);
  close_at_once(socket, frame);
}

void RemoteActorServer::Impl::request_stop(GoodbyeCode code) {
  if (!started || stopping.exchange(true)) return;
  goodbye = code;
  asio::post(host.io, [this, code] {
    boost::system::error_code ec;
    acceptor.close(ec);
    retry_timer.cancel();
    for (auto& s : host.sessions.all()) asio::post(s->get_executor(), [s, code] { s->shutdown(code); });
  });
}

void RemoteActorServer::Impl::join() {
  if (!started) return;
  request_stop(goodbye);
  host.sessions.wait_until_empty();
  host.sockets.wait_all_released();  // lingering ones end within config.linger
  work.reset();
  host.io.stop();
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

int RemoteActorServer::free_slots() const { return impl_->host.slots.free_slots(); }
int RemoteActorServer::held_sockets() const { return impl_->host.sockets.held(); }
int RemoteActorServer::socket_cap() const { return impl_->host.sockets.cap(); }
int RemoteActorServer::active_sessions() const { return impl_->host.sessions.running(); }
const RemoteServerCounters& RemoteActorServer::counters() const { return impl_->host.counters; }

}  // namespace seedrl::net
