// A loopback TCP port nothing listens on now, for tests that start servers:
// ctest -j runs other tests beside them. Another process may take it before
// the test binds it; the odds are small, and a clash fails loudly at bind,
// never silently.
//
// Drawn below the kernel's range for outgoing connections
// (ip_local_port_range), not picked by the kernel: a client that connects to
// a port in that range before its server listens can be given that very port
// as its own source port and connect to itself (TCP's simultaneous open), so
// that it reads its own bytes as the server's answer.
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <random>

#include <catch2/catch.hpp>

namespace seedrl::test {

inline bool port_is_free(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  const bool free = bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  close(fd);
  return free;
}

inline int free_port() {
  int low = 32768;  // Linux's default when the file cannot be read
  std::ifstream("/proc/sys/net/ipv4/ip_local_port_range") >> low;
  const int top = low - 1, bottom = std::max(1024, low - 12000);
  REQUIRE(top > bottom);  // a range that starts at 1024 leaves no room below it
  std::mt19937 pick{std::random_device{}()};
  std::uniform_int_distribution<int> port(bottom, top);
  for (int tries = 0; tries < 1000; ++tries)
    if (const int p = port(pick); port_is_free(p)) return p;
  FAIL("no free loopback port in " << bottom << "-" << top);
  return 0;
}

}  // namespace seedrl::test
