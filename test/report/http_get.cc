#include "http_get.h"

#include <chrono>
#include <utility>  // Boost 1.74's asio/awaitable.hpp uses std::exchange without it

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace seedrl::test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

constexpr std::chrono::seconds kHang{120};

// Asynchronous, because tcp_stream's deadline only applies to asynchronous
// operations: a server that never answers ends the exchange with timed_out.
HttpResult http_exchange(std::uint16_t port, const std::string& request) {
  asio::io_context io;
  beast::tcp_stream stream(io);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(256u << 20);
  HttpResult result;
  stream.expires_after(kHang);  // one deadline for the whole exchange
  stream.async_connect({asio::ip::make_address("127.0.0.1"), port}, [&](beast::error_code ec) {
    if (ec) {
      result.timed_out = ec == beast::error::timeout;
      return;
    }
    // A write error is no failure: the server may answer and close before
    // it has read everything. What it answered is still there to read.
    asio::async_write(stream, asio::buffer(request), [&](beast::error_code, std::size_t) {
      http::async_read(stream, buffer, parser, [&](beast::error_code ec, std::size_t) {
        if (ec) {
          result.timed_out = ec == beast::error::timeout;
          return;
        }
        result.status = static_cast<int>(parser.get().result_int());
        result.body = parser.get().body();
      });
    });
  });
  io.run();
  return result;
}

}  // namespace

HttpResult http_get(std::uint16_t port, const std::string& target) {
  return http_exchange(port, "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
}

HttpResult http_raw(std::uint16_t port, const std::string& raw) { return http_exchange(port, raw); }

}  // namespace seedrl::test
