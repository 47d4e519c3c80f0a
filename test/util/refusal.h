// The one-line message of what a call throws as std::invalid_argument; a
// call that does not throw fails the test.
#pragma once

#include <stdexcept>
#include <string>

#include <catch2/catch.hpp>

namespace seedrl::test {

template <typename Fn>
std::string refusal(Fn fn) {
  try {
    fn();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  FAIL("not refused");
  return {};
}

}  // namespace seedrl::test
