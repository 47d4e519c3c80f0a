// This host's own address on the way to another host: the source address the
// kernel's routing table picks for packets to `host` (a connected UDP socket
// sends nothing). A process that others must reach binds there rather than on
// whatever its host name resolves to: Debian's /etc/hosts maps the host name
// to 127.0.1.1, and a peer on another host cannot reach a loopback address.
// Also: the address a host name resolves to here.
#pragma once

#include <cstdint>
#include <string>

namespace seedrl::net {

// `host`: a name or an IPv4/IPv6 address; `port` only completes the
// destination. Returns the local address as text ("10.0.0.5", "fe80::1").
// Throws std::runtime_error naming `what` and `host` when it does not resolve
// or no route leads there.
std::string local_address_towards(const std::string& host, std::uint16_t port, const std::string& what);

// The address `host` resolves to here, as text: the first, which a client
// connecting to it tries first. Throws std::runtime_error as above.
std::string resolve_address(const std::string& host, std::uint16_t port, const std::string& what);

}  // namespace seedrl::net
