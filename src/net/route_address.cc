#include "seedrl/net/route_address.h"

#include <stdexcept>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/udp.hpp>

namespace seedrl::net {

namespace {

boost::asio::ip::udp::resolver::results_type resolve(boost::asio::io_context& io, const std::string& host,
                                                     std::uint16_t port, const std::string& what) {
  boost::system::error_code ec;
  auto endpoints = boost::asio::ip::udp::resolver(io).resolve(host, std::to_string(port), ec);
  if (ec || endpoints.empty())
    throw std::runtime_error(what + ": " + host + " does not resolve: " + (ec ? ec.message() : "no address"));
  return endpoints;
}

}  // namespace

std::string resolve_address(const std::string& host, std::uint16_t port, const std::string& what) {
  boost::asio::io_context io;
  return resolve(io, host, port, what).begin()->endpoint().address().to_string();
}

std::string local_address_towards(const std::string& host, std::uint16_t port, const std::string& what) {
  namespace ip = boost::asio::ip;
  boost::asio::io_context io;
  boost::system::error_code ec;
  const auto endpoints = resolve(io, host, port, what);
  std::string why = "no address";
  for (const auto& entry : endpoints) {
    ip::udp::socket socket(io);
    socket.open(entry.endpoint().protocol(), ec);
    if (!ec) socket.connect(entry.endpoint(), ec);
    if (!ec) {
      const ip::udp::endpoint local = socket.local_endpoint(ec);
      if (!ec) return local.address().to_string();
    }
    why = ec.message();
  }
  throw std::runtime_error(what + ": no route from this host to " + host + ": " + why);
}

}  // namespace seedrl::net
