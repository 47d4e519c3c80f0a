#include "seedrl/env/football/data_check.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <stdexcept>
#include <vector>

#ifdef SEEDRL_FOOTBALL_MANIFEST
#include <zlib.h>
#endif

#ifndef SEEDRL_FOOTBALL_DEFAULT_DATA_DIR
#define SEEDRL_FOOTBALL_DEFAULT_DATA_DIR ""
#endif
#ifndef SEEDRL_FOOTBALL_DEFAULT_FONT
#define SEEDRL_FOOTBALL_DEFAULT_FONT ""
#endif

namespace seedrl::football {

namespace {

std::string from_environment(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}

// The user's settings, read before any engine starts: EngineGame sets both
// variables for the engine it starts (the engine reads them), so reading
// them later would see the previous env's paths.
const std::string g_user_data_dir = from_environment("GFOOTBALL_DATA_DIR");
const std::string g_user_font = from_environment("GFOOTBALL_FONT");

std::string first_of(const std::string& flag, const std::string& user, const char* built) {
  if (!flag.empty()) return flag;
  if (!user.empty()) return user;
  return built;
}

// What the engine opens with rendering off (strace of a football env's start,
// reset and steps; see docs/football.md), relative to the data folder.
constexpr const char* kRequired[] = {
#include "data_files.inc"
};

#ifdef SEEDRL_FOOTBALL_MANIFEST
// The data files as the build found them (third_party/cmake/football_manifest.py).
struct ManifestEntry {
  const char* path;
  std::uintmax_t size;
  std::uint32_t crc32;
};
constexpr ManifestEntry kManifest[] = {
#include SEEDRL_FOOTBALL_MANIFEST
};

std::uint32_t file_crc32(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::vector<char> buf(1 << 20);
  uLong crc = crc32(0L, Z_NULL, 0);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    if (in.gcount() > 0) crc = crc32(crc, reinterpret_cast<const Bytef*>(buf.data()), static_cast<uInt>(in.gcount()));
  }
  return static_cast<std::uint32_t>(crc);
}

// Sizes on every check (as cheap as the existence check); contents once per
// folder and process (every file read once).
void check_against_manifest(const std::string& data_dir) {
  namespace fs = std::filesystem;
  const auto damaged = [&](const char* file, const std::string& how) {
    return std::invalid_argument("football: the engine data folder " + data_dir + " is damaged: " + file + " " + how +
                                 " (--football-data-dir; reinstall the engine's data)");
  };
  std::error_code ec;
  for (const ManifestEntry& e : kManifest) {
    const std::uintmax_t size = fs::file_size(fs::path(data_dir) / e.path, ec);
    if (!ec && size != e.size)
      throw damaged(e.path, "is " + std::to_string(size) + " bytes, not the " + std::to_string(e.size) +
                                " this build was made with");
  }
  static std::mutex mu;
  static std::set<std::string> verified;
  std::lock_guard lock(mu);
  if (verified.count(data_dir) > 0) return;
  for (const ManifestEntry& e : kManifest)
    if (file_crc32(fs::path(data_dir) / e.path) != e.crc32)
      throw damaged(e.path, "differs from the file this build was made with (CRC-32)");
  verified.insert(data_dir);
}
#endif

}  // namespace

EnginePaths engine_paths(const std::string& data_dir_flag, const std::string& font_flag) {
  return {first_of(data_dir_flag, g_user_data_dir, SEEDRL_FOOTBALL_DEFAULT_DATA_DIR),
          first_of(font_flag, g_user_font, SEEDRL_FOOTBALL_DEFAULT_FONT)};
}

const char* const* required_data_files(int* count) {
  *count = static_cast<int>(std::size(kRequired));
  return kRequired;
}

void check_engine_paths(const EnginePaths& p) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (p.data_dir.empty())
    throw std::invalid_argument("football: no engine data folder (--football-data-dir DIR or $GFOOTBALL_DATA_DIR)");
  if (!fs::is_directory(p.data_dir, ec))
    throw std::invalid_argument("football: the engine data folder " + p.data_dir +
                                " does not exist (--football-data-dir or $GFOOTBALL_DATA_DIR)");
  for (const char* f : kRequired) {
    const fs::path file = fs::path(p.data_dir) / f;
    if (!fs::is_regular_file(file, ec) || fs::file_size(file, ec) == 0 || ec)
      throw std::invalid_argument("football: the engine data folder " + p.data_dir + " is incomplete: " + f +
                                  " is missing or empty (--football-data-dir)");
  }
#ifdef SEEDRL_FOOTBALL_MANIFEST
  check_against_manifest(p.data_dir);
#endif
  if (p.font.empty())
    throw std::invalid_argument("football: no font for the engine (--football-font FILE or $GFOOTBALL_FONT)");
  std::ifstream font(p.font, std::ios::binary);
  char magic[4] = {};
  if (!font || !font.read(magic, 4))
    throw std::invalid_argument("football: cannot read the font " + p.font + " (--football-font or $GFOOTBALL_FONT)");
  // TrueType (00 01 00 00, "true") or OpenType ("OTTO") outlines.
  const std::string m(magic, 4);
  if (m != std::string("\0\1\0\0", 4) && m != "true" && m != "OTTO")
    throw std::invalid_argument("football: " + p.font + " is not a TrueType font (--football-font)");
}

}  // namespace seedrl::football
