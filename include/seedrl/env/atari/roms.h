// Where atari:<game> finds its ROM: <dir>/<game>.bin, ALE's snake_case names
// (pong.bin, space_invaders.bin). The directory is --rom-dir, else the
// environment variable SEEDRL_ATARI_ROMS, else the one the build found
// (-DSEEDRL_ATARI_ROMS=DIR at configure time, or ../shared/ale/roms beside
// the source tree). Needs no ALE.
#pragma once

#include <string>
#include <vector>

#include "seedrl/env/registry.h"

namespace seedrl::atari {

struct RomDir {
  std::string path;    // empty: none given anywhere
  std::string source;  // "--rom-dir", "SEEDRL_ATARI_ROMS" or "the build's default"
};

RomDir rom_dir(const EnvOptions& options);

// The ROM file of `game`. Throws std::invalid_argument, one line naming the
// game, the directory and the flag, when there is no directory or no file.
std::string rom_path(const std::string& game, const EnvOptions& options);

// The games with a <game>.bin in `dir` (snake_case names only), sorted;
// empty when the directory does not exist.
std::vector<std::string> games_in(const std::string& dir);

}  // namespace seedrl::atari
