// atari:<game> for every ROM in the ROM directory (see atari/roms.h), on ALE.
// Without ALE the family still registers, so `seedrl envs` and a run that
// asks for atari:pong say how to get it.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "seedrl/env/atari/atari_env.h"
#include "seedrl/env/atari/roms.h"
#include "seedrl/env/registry.h"

#if SEEDRL_WITH_ALE
#include <ale/games/Roms.hpp>
#endif

namespace seedrl {

namespace {

constexpr const char* kHowToEnable =
    "seedrl was built without ALE: run third_party/install-ale.sh SRC (ALE 0.12.1's source) and "
    "reconfigure, see docs/atari.md";

std::vector<std::string> available_games([[maybe_unused]] const EnvOptions& options) {
  std::vector<std::string> out;
#if SEEDRL_WITH_ALE
  // Files ALE knows by name; one it would know only by its MD5 (a renamed
  // ROM) still works when asked for by its file name.
  for (const std::string& game : atari::games_in(atari::rom_dir(options).path)) {
    std::unique_ptr<ale::RomSettings> known(ale::buildRomRLWrapper(game + ".bin", std::string()));
    if (known) out.push_back(game);
  }
#endif
  return out;
}

}  // namespace

void register_atari(EnvRegistry& registry) {
  EnvRegistry::Family f;
  f.prefix = "atari:";
  f.member = "<game>";
  f.description = "Atari 2600 on ALE: 84x84 grayscale, 4 frames per step, 18 actions (docs/atari.md)";
  f.list = available_games;
  f.frame_stack = 4;
#if SEEDRL_WITH_ALE
  f.unavailable = "no ROMs found: pass --rom-dir DIR (pong.bin, ...) or set SEEDRL_ATARI_ROMS";
  f.make = [](const std::string& game, const EnvOptions& options) -> EnvPtr {
    return std::make_unique<atari::AtariEnv>(atari::atari_config(game, options));
  };
  f.spec = [](const std::string& game, const EnvOptions& options) {
    return atari::atari_spec(atari::atari_config(game, options));
  };
#else
  f.unavailable = kHowToEnable;
  f.make = [](const std::string& game, const EnvOptions&) -> EnvPtr {
    throw std::invalid_argument("atari:" + game + ": " + kHowToEnable);
  };
#endif
  registry.add_family(std::move(f));
}

}  // namespace seedrl
