// A raw TCP peer for the remote-actor server tests: it sends whatever bytes a
// test gives (well-formed or not) and collects the reply until the server
// closes, saying how the connection ended (EOF or reset). Deadlines only
// catch hangs.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <thread>
#include <vector>

#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange unincluded

#include <boost/asio.hpp>

#include "../util/wait_until.h"
#include "seedrl/net/protocol.h"

namespace seedrl::test {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

struct RawReply {
  std::vector<std::uint8_t> bytes;
  bool closed = false;              // the server ended the connection (EOF or reset)
  boost::system::error_code ended;  // how: asio::error::eof for a clean close
  boost::system::error_code write_error;
};

class RawPeer {
 public:
  explicit RawPeer(std::uint16_t port) : own_io_(std::make_unique<asio::io_context>()), io_(*own_io_), socket_(io_) {
    socket_.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  }
  // Many peers can share one io_context (one descriptor per peer, not four)
  // when only poll() is used.
  RawPeer(asio::io_context& io, std::uint16_t port) : io_(io), socket_(io_) {
    socket_.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  }

  // Writes `bytes` (all of them, however long the server takes to read)
  // while collecting the reply, until the server closes the connection.
  RawReply exchange(const std::vector<std::uint8_t>& bytes, std::chrono::seconds hang = std::chrono::seconds(60)) {
    RawReply r;
    bool wrote = bytes.empty();
    if (!bytes.empty())
      asio::async_write(socket_, asio::buffer(bytes), [&](boost::system::error_code ec, std::size_t) {
        r.write_error = ec;
        wrote = true;
      });
    std::function<void()> more = [&] {
      socket_.async_read_some(asio::buffer(buffer_), [&](boost::system::error_code ec, std::size_t n) {
        r.bytes.insert(r.bytes.end(), buffer_.begin(), buffer_.begin() + n);
        if (ec) {
          r.closed = true;
          r.ended = ec;
          return;
        }
        more();
      });
    };
    more();
    const auto until = std::chrono::steady_clock::now() + hang;
    io_.restart();
    while (!(r.closed && wrote) && std::chrono::steady_clock::now() < until)
      io_.run_for(std::chrono::milliseconds(100));
    boost::system::error_code ec;
    socket_.cancel(ec);
    io_.restart();
    io_.poll();  // the cancelled handlers, whose state is on this stack
    return r;
  }

  // Reads exactly one frame (a test's handshake), with a deadline for hangs.
  std::vector<std::uint8_t> read_frame(std::chrono::seconds hang = std::chrono::seconds(60)) {
    std::vector<std::uint8_t> frame(kHeaderBytes);
    read_exactly(frame.data(), kHeaderBytes, hang);
    const auto h = net::decode_header(std::span<const std::uint8_t, kHeaderBytes>(frame.data(), kHeaderBytes));
    frame.resize(kHeaderBytes + h.body_bytes());
    read_exactly(frame.data() + kHeaderBytes, h.body_bytes(), hang);
    return frame;
  }

  // Takes what has arrived without waiting; true once the server has closed.
  bool poll(RawReply& r) {
    boost::system::error_code ec;
    socket_.non_blocking(true, ec);
    while (!r.closed) {
      const std::size_t n = socket_.read_some(asio::buffer(buffer_), ec);
      r.bytes.insert(r.bytes.end(), buffer_.begin(), buffer_.begin() + n);
      if (ec == asio::error::would_block) break;
      if (ec) {
        r.closed = true;
        r.ended = ec;
      }
    }
    socket_.non_blocking(false, ec);
    return r.closed;
  }

  tcp::socket& socket() { return socket_; }

 private:
  static constexpr std::size_t kHeaderBytes = net::kHeaderBytes;

  void read_exactly(std::uint8_t* p, std::size_t n, std::chrono::seconds hang) {
    bool done = false;
    boost::system::error_code error;
    asio::async_read(socket_, asio::buffer(p, n), [&](boost::system::error_code ec, std::size_t) {
      error = ec;
      done = true;
    });
    io_.restart();
    io_.run_for(hang);
    if (!done) {
      boost::system::error_code ec;
      socket_.cancel(ec);
      io_.restart();
      io_.poll();
      throw std::runtime_error("no frame from the server");
    }
    if (error) throw boost::system::system_error(error);
  }

  std::unique_ptr<asio::io_context> own_io_;
  asio::io_context& io_;
  tcp::socket socket_;
  std::array<std::uint8_t, 16384> buffer_{};
};

// The frame of `type` at the start of a reply, decoded, if that is what it holds.
inline std::optional<net::Reject> reject_in(const RawReply& r) {
  if (r.bytes.size() < net::kHeaderBytes || r.bytes[4] != static_cast<std::uint8_t>(net::MsgType::kReject))
    return std::nullopt;
  return net::decode_reject(std::span(r.bytes).subspan(net::kHeaderBytes));
}
inline std::optional<net::Goodbye> goodbye_in(const RawReply& r) {
  if (r.bytes.size() < net::kHeaderBytes || r.bytes[4] != static_cast<std::uint8_t>(net::MsgType::kGoodbye))
    return std::nullopt;
  return net::decode_goodbye(std::span(r.bytes).subspan(net::kHeaderBytes));
}

}  // namespace seedrl::test
