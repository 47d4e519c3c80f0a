// The local address towards another host, as the routing table picks it
// (net/route_address.h). Across hosts it is checked by test/cli/learner_hosts.sh.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include "seedrl/net/route_address.h"

using seedrl::net::local_address_towards;
using seedrl::net::resolve_address;

TEST_CASE("local_address_towards: loopback is reached from loopback", "[net][route]") {
  CHECK(local_address_towards("127.0.0.1", 29500, "--master-addr") == "127.0.0.1");
  // Another 127/8 address routes through lo too: the source is lo's own address.
  CHECK(local_address_towards("127.0.0.2", 29500, "--master-addr").rfind("127.", 0) == 0);
  const std::string local = local_address_towards("localhost", 29500, "--master-addr");
  CHECK((local == "::1" || local.rfind("127.", 0) == 0));
}

TEST_CASE("local_address_towards: a name that does not resolve is named with the flag", "[net][route]") {
  // .invalid never resolves (RFC 2606).
  CHECK_THROWS_WITH(local_address_towards("no-such-host.invalid", 29500, "--master-addr"),
                    Catch::StartsWith("--master-addr: no-such-host.invalid does not resolve"));
}

TEST_CASE("resolve_address: a literal is itself, a name that does not resolve is named", "[net][route]") {
  CHECK(resolve_address("127.0.0.1", 29500, "--master-addr") == "127.0.0.1");
  CHECK(resolve_address("10.1.2.3", 29500, "--master-addr") == "10.1.2.3");
  CHECK_THROWS_WITH(resolve_address("no-such-host.invalid", 29500, "--master-addr"),
                    Catch::StartsWith("--master-addr: no-such-host.invalid does not resolve"));
}
