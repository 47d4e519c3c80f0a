#include <catch2/catch.hpp>

#include "seedrl/util/constant_time_equal.h"

using namespace seedrl;

TEST_CASE("tokens compare equal only when identical", "[util][net]") {
  CHECK(constant_time_equal("abc", "abc"));
  CHECK_FALSE(constant_time_equal("abc", "abd"));
  CHECK_FALSE(constant_time_equal("abc", "abcd"));
  CHECK_FALSE(constant_time_equal("", "a"));
  CHECK(constant_time_equal("", ""));
}
