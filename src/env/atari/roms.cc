#include "seedrl/env/atari/roms.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace seedrl::atari {

namespace fs = std::filesystem;

namespace {

// Set by CMake on this file only (see the top-level CMakeLists.txt).
#ifndef SEEDRL_ATARI_DEFAULT_ROM_DIR
#define SEEDRL_ATARI_DEFAULT_ROM_DIR ""
#endif

bool is_game_name(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(),
                                   [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

}  // namespace

RomDir rom_dir(const EnvOptions& options) {
  if (!options.rom_dir.empty()) return {options.rom_dir, "--rom-dir"};
  if (const char* env = std::getenv("SEEDRL_ATARI_ROMS"); env != nullptr && *env != '\0')
    return {env, "SEEDRL_ATARI_ROMS"};
  return {SEEDRL_ATARI_DEFAULT_ROM_DIR, "the build's default"};
}

std::string rom_path(const std::string& game, const EnvOptions& options) {
  const RomDir dir = rom_dir(options);
  const std::string env = "atari:" + game;
  if (dir.path.empty())
    throw std::invalid_argument(env + ": no ROM directory; pass --rom-dir DIR or set SEEDRL_ATARI_ROMS");
  if (!is_game_name(game))
    throw std::invalid_argument(env + ": not a ROM name (ALE's are snake_case, e.g. atari:space_invaders)");
  const fs::path path = fs::path(dir.path) / (game + ".bin");
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    throw std::invalid_argument(env + ": no ROM " + game + ".bin in " + dir.path + " (the directory of " + dir.source +
                                "; set --rom-dir DIR or SEEDRL_ATARI_ROMS)");
  return path.string();
}

std::vector<std::string> games_in(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return out;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    if (p.extension() == ".bin" && is_game_name(p.stem().string()) && it->is_regular_file(ec))
      out.push_back(p.stem().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace seedrl::atari
