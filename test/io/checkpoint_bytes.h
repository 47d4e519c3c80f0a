// Crafting damaged checkpoints for tests: a checkpoint's bytes, edited and
// resealed with a valid CRC, so the damage gets past the checksum as a crafted
// file would. The layouts are the ones src/io/checkpoint.cc documents (and
// the older LibTorch-archive one, which had its CRC at byte 16).
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "seedrl/io/crc32c.h"

namespace seedrl::test {

inline std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Rewrites `path` in place: truncating a file to nothing and writing it again
// makes ext4 flush it on close (auto_da_alloc), which thousands of edits feel.
inline void write_bytes(const std::string& path, const std::string& bytes) {
  if (!std::filesystem::exists(path)) std::ofstream(path, std::ios::binary);
  std::fstream(path, std::ios::binary | std::ios::in | std::ios::out)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  std::filesystem::resize_file(path, bytes.size());
}

constexpr std::size_t kHeaderBytes = 28;         // "SEEDRLC2", index length, data length, CRC
constexpr std::size_t kArchiveHeaderBytes = 20;  // "SEEDRLC1", payload length, CRC

inline bool is_archive_format(const std::string& b) { return b.size() >= 8 && b.compare(0, 8, "SEEDRLC1") == 0; }

// Recomputes the CRC over everything after the header (either layout).
inline void reseal(std::string& b) {
  const std::size_t header = is_archive_format(b) ? kArchiveHeaderBytes : kHeaderBytes;
  const std::size_t at = header - 4;
  if (b.size() < header) return;
  const std::uint32_t crc = crc32c(b.data() + header, b.size() - header);
  std::memcpy(b.data() + at, &crc, 4);
}

// The JSON index and the tensor data of a current-format checkpoint.
struct CheckpointParts {
  nlohmann::json index;
  std::string data;
};

inline CheckpointParts split_checkpoint(const std::string& b) {
  std::uint64_t index_bytes = 0;
  std::memcpy(&index_bytes, b.data() + 8, 8);
  CheckpointParts p;
  p.index = nlohmann::json::parse(b.substr(kHeaderBytes, index_bytes));
  p.data = b.substr(kHeaderBytes + index_bytes);
  return p;
}

// A sealed file of `index_text` and `data`, with the lengths they have.
inline std::string join_checkpoint(const std::string& index_text, const std::string& data) {
  std::string b(kHeaderBytes, '\0');
  std::memcpy(b.data(), "SEEDRLC2", 8);
  const std::uint64_t index_bytes = index_text.size(), data_bytes = data.size();
  std::memcpy(b.data() + 8, &index_bytes, 8);
  std::memcpy(b.data() + 16, &data_bytes, 8);
  b += index_text;
  b += data;
  reseal(b);
  return b;
}

inline std::string join_checkpoint(const CheckpointParts& p) { return join_checkpoint(p.index.dump(), p.data); }

}  // namespace seedrl::test
