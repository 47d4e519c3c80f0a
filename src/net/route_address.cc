#include "seedrl/net/route_address.h"

#include <stdexcept>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/udp.hpp>

namespace seedrl::net {

std::string local_address_towards(const std::string& host, std::uint16_t port, const std::string& what) {
  namespace ip = boost::asio::ip;
  boost::asio::io_context io;
  boost::system::error_code ec;
  const auto endpoints = ip::udp::resolver(io).resolve(host, std::to_string(port), ec);
  if (ec) throw std::runtime_error(what + ": " + host + " does not resolve: " + ec.message());
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
