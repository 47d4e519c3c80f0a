#include "graceful_close.h"

#include <sys/socket.h>

#include <array>
#include <memory>

namespace seedrl::net {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

// Owns the socket until it is closed; every handler runs on the socket's executor.
class Closer : public std::enable_shared_from_this<Closer> {
 public:
  Closer(tcp::socket socket, std::vector<std::uint8_t> farewell, LingerLimits limits, std::function<void()> on_closed)
      : socket_(std::move(socket)),
        timer_(socket_.get_executor()),
        farewell_(std::move(farewell)),
        limits_(limits),
        on_closed_(std::move(on_closed)) {}

  tcp::socket::executor_type executor() { return socket_.get_executor(); }

  void start() {
    timer_.expires_after(limits_.max_time);
    timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
      if (!ec) self->finish();
    });
    // Reading while writing: a peer blocked in a write of its own may read
    // nothing until its input is taken.
    drain();
    if (farewell_.empty()) return half_close();
    asio::async_write(socket_, asio::buffer(farewell_),
                      [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                        if (ec) return self->finish();
                        self->half_close();
                      });
  }

 private:
  void half_close() {
    if (closed_) return;
    written_ = true;
    boost::system::error_code ec;
    socket_.shutdown(tcp::socket::shutdown_send, ec);
    if (ec || peer_closed_) finish();
  }

  void drain() {
    socket_.async_read_some(asio::buffer(buffer_),
                            [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
                              if (self->closed_) return;
                              self->discarded_ += n;
                              if (ec == asio::error::eof) {
                                self->peer_closed_ = true;  // it may still be reading the farewell
                                if (self->written_) self->finish();
                                return;
                              }
                              if (ec || self->discarded_ >= self->limits_.max_bytes) return self->finish();
                              self->drain();
                            });
  }

  void finish() {
    if (closed_) return;
    closed_ = true;
    boost::system::error_code ec;
    timer_.cancel();
    socket_.close(ec);
    if (on_closed_) on_closed_();
  }

  tcp::socket socket_;
  asio::steady_timer timer_;
  std::vector<std::uint8_t> farewell_;
  LingerLimits limits_;
  std::function<void()> on_closed_;
  std::array<std::uint8_t, 16384> buffer_{};
  std::size_t discarded_ = 0;
  bool written_ = false, peer_closed_ = false, closed_ = false;
};

}  // namespace

void close_gracefully(tcp::socket socket, std::vector<std::uint8_t> farewell, LingerLimits limits,
                      std::function<void()> on_closed) {
  auto closer = std::make_shared<Closer>(std::move(socket), std::move(farewell), limits, std::move(on_closed));
  asio::dispatch(closer->executor(), [closer] { closer->start(); });
}

void close_at_once(tcp::socket& socket, const std::vector<std::uint8_t>& farewell) {
  const int fd = socket.native_handle();
  if (!farewell.empty()) ::send(fd, farewell.data(), farewell.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  std::array<std::uint8_t, 4096> sink;
  for (std::size_t taken = 0; taken < 65536;) {
    const ssize_t n = ::recv(fd, sink.data(), sink.size(), MSG_DONTWAIT);
    if (n <= 0) break;
    taken += static_cast<std::size_t>(n);
  }
  boost::system::error_code ec;
  socket.close(ec);
}

}  // namespace seedrl::net
