#include "seedrl/env/football/data_check.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

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
