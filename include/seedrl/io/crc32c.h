// CRC-32C (Castagnoli), the checksum TFRecord framing uses.
#pragma once

#include <cstddef>
#include <cstdint>

namespace seedrl {

// CRC-32C of `n` bytes, continuing from `crc` (the value returned for the
// preceding bytes; 0 to start). Reflected polynomial 0x82F63B78, initial and
// final XOR 0xFFFFFFFF, so crc32c("123456789") == 0xE3069283.
// Uses SSE4.2's crc32 instruction where the CPU has it.
std::uint32_t crc32c(const void* data, std::size_t n, std::uint32_t crc = 0);

// The same CRC a byte at a time from a table: the reference the fast path is
// tested against, and the fallback on other CPUs.
std::uint32_t crc32c_bytewise(const void* data, std::size_t n, std::uint32_t crc = 0);

// TFRecord's masked form: a CRC of data that itself contains CRCs is weak, so
// TensorFlow rotates and offsets the stored value.
constexpr std::uint32_t mask_crc32c(std::uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }

}  // namespace seedrl
