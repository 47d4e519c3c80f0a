// The machine's name against the kernel's own record of it.
#include <catch2/catch.hpp>

#include <sys/utsname.h>

#include <string>

#include "seedrl/util/host_name.h"

TEST_CASE("host_name is the kernel's node name", "[util]") {
  utsname u{};
  REQUIRE(uname(&u) == 0);
  const std::string expected = u.nodename[0] == '\0' ? "localhost" : u.nodename;
  CHECK(seedrl::host_name() == expected);
  CHECK_FALSE(seedrl::host_name().empty());
}
