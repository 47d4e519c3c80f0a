// CRC-32C against its published check value and, for the SSE4.2 path, against
// the byte-at-a-time table over every length and alignment that matters.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "seedrl/io/crc32c.h"

using seedrl::crc32c;
using seedrl::crc32c_bytewise;

TEST_CASE("crc32c gives the published check value", "[io][crc32c]") {
  const std::string check = "123456789";
  CHECK(crc32c(check.data(), check.size()) == 0xE3069283u);
  CHECK(crc32c_bytewise(check.data(), check.size()) == 0xE3069283u);
  CHECK(crc32c(nullptr, 0) == 0u);
  // RFC 3720 (iSCSI) B.4: 32 bytes of zeros.
  const std::vector<unsigned char> zeros(32, 0);
  CHECK(crc32c(zeros.data(), zeros.size()) == 0x8A9136AAu);
}

TEST_CASE("crc32c equals the byte-at-a-time CRC at every length, offset and split", "[io][crc32c]") {
  std::mt19937 rng(7);
  std::vector<unsigned char> bytes(1000);
  for (auto& b : bytes) b = static_cast<unsigned char>(rng());
  for (std::size_t offset = 0; offset < 8; ++offset)
    for (std::size_t n = 0; n + offset <= 200; ++n)
      REQUIRE(crc32c(bytes.data() + offset, n) == crc32c_bytewise(bytes.data() + offset, n));
  // Continuing from an earlier CRC gives the CRC of the whole.
  const std::uint32_t whole = crc32c_bytewise(bytes.data(), bytes.size());
  for (std::size_t split : {0, 1, 7, 8, 9, 500, 999, 1000})
    CHECK(crc32c(bytes.data() + split, bytes.size() - split, crc32c(bytes.data(), split)) == whole);
}
