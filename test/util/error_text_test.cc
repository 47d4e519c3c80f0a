// Errors reach users as one line: LibTorch's backtrace and any further lines
// are cut, the message itself is kept.
#include <catch2/catch.hpp>

#include <new>
#include <stdexcept>

#include <c10/util/Exception.h>

#include "seedrl/util/error_text.h"

using namespace seedrl;

TEST_CASE("error_text keeps a LibTorch error's message and drops its backtrace", "[util]") {
  try {
    TORCH_CHECK(false, "Invalid learning rate: nan");
    FAIL("TORCH_CHECK did not throw");
  } catch (const std::exception& e) {
    REQUIRE(std::string(e.what()).find('\n') != std::string::npos);  // LibTorch's what() is many lines
    CHECK(error_text(e) == "Invalid learning rate: nan");
  }
  CHECK(error_text(std::runtime_error("first line\nsecond line")) == "first line");
  CHECK(error_text(std::runtime_error("plain")) == "plain");
  CHECK(error_text(std::bad_alloc()) == "out of memory (std::bad_alloc)");
}
