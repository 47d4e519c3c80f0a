#include "http_get.h"

#include <chrono>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace seedrl::test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

constexpr std::chrono::seconds kHang{120};

template <class Send>
HttpResult exchange(std::uint16_t port, Send send) {
  asio::io_context io;
  beast::tcp_stream stream(io);
  stream.expires_after(kHang);
  stream.connect(asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  send(stream);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(256u << 20);
  beast::error_code ec;
  http::read(stream, buffer, parser, ec);
  if (ec) {
    HttpResult closed;
    closed.timed_out = ec == beast::error::timeout;
    return closed;
  }
  return {static_cast<int>(parser.get().result_int()), parser.get().body()};
}

}  // namespace

HttpResult http_get(std::uint16_t port, const std::string& target) {
  return exchange(port, [&](beast::tcp_stream& stream) {
    http::request<http::empty_body> request{http::verb::get, target, 11};
    request.set(http::field::host, "127.0.0.1");
    http::write(stream, request);
  });
}

HttpResult http_raw(std::uint16_t port, const std::string& raw) {
  return exchange(port, [&](beast::tcp_stream& stream) {
    beast::error_code ec;  // the server may close before it has read everything
    asio::write(stream, asio::buffer(raw), ec);
  });
}

}  // namespace seedrl::test
