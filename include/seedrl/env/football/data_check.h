// Where the engine's data folder and font are, and whether they are whole.
// The engine ends the process with a backtrace on a missing data file, and
// crashes on a truncated or garbled one, so every file it opens with
// rendering off is checked before the first engine starts (present, and of
// the size and CRC-32 the build found), and one at fault is named in one line.
#pragma once

#include <string>

#include "seedrl/env/football/engine_game.h"

namespace seedrl::football {

// --football-data-dir, else $GFOOTBALL_DATA_DIR, else the install found at
// configure time; the font likewise (--football-font, $GFOOTBALL_FONT).
EnginePaths engine_paths(const std::string& data_dir_flag, const std::string& font_flag);

// Throws std::invalid_argument naming the folder, file or font at fault.
void check_engine_paths(const EnginePaths& paths);

// The files under the data folder the engine opens with rendering off.
const char* const* required_data_files(int* count);

}  // namespace seedrl::football
