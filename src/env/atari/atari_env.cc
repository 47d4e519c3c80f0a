#include "seedrl/env/atari/atari_env.h"

#include <stdexcept>

#include "seedrl/env/atari/roms.h"

#if SEEDRL_WITH_ALE
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>

#include <ale/ale_interface.hpp>
#include <ale/emucore/MD5.hxx>
#endif

namespace seedrl::atari {

AtariConfig atari_config(const std::string& game, const EnvOptions& o) {
  AtariConfig c;
  c.game = game;
  c.rom_path = rom_path(game, o);
  c.frame_skip = o.frame_skip;
  c.screen_size = o.screen_size;
  c.noop_max = o.noop_max;
  c.max_episode_frames = o.max_episode_frames;
  c.sticky_action_prob = o.sticky_action_prob < 0 ? 0.0 : o.sticky_action_prob;
  c.terminal_on_life_loss = o.terminal_on_life_loss;
  c.minimal_action_set = o.minimal_action_set;
  c.accept_unknown_rom = o.accept_unknown_rom;
  if (c.frame_skip < 1) throw std::invalid_argument("--frame-skip must be at least 1");
  // Area averaging only shrinks: at most Atari's 160 columns.
  if (c.screen_size < 8 || c.screen_size > 160)
    throw std::invalid_argument("--screen-size must be between 8 and 160 (got " + std::to_string(c.screen_size) + ")");
  if (c.noop_max < 0) throw std::invalid_argument("--noop-max must not be negative");
  if (c.max_episode_frames < 0) throw std::invalid_argument("--max-episode-frames must not be negative");
  if (c.sticky_action_prob > 1) throw std::invalid_argument("--sticky-action-prob must be at most 1");
  return c;
}

#if SEEDRL_WITH_ALE

namespace {

// ALE logs through one process-wide level; above Info its banner ("A.L.E:
// Arcade Learning Environment ...", "Running ROM file...") stays off the
// terminal. Set once, before the first ALEInterface exists.
void quiet_ale() {
  static std::once_flag once;
  std::call_once(once, [] { ale::Logger::setMode(ale::Logger::Error); });
}

// The largest Atari 2600 cartridge ALE emulates is 64 KiB (and a few
// bank-switched ones 512 KiB); anything much larger is not a ROM.
constexpr std::uintmax_t kMaxRomBytes = 4 << 20;

// ALE's loadROM ends the process (std::exit) on a ROM it cannot wrap, and on
// a file that only has a game's name (a bad dump, random bytes) its emulator
// can print "Illegal Instruction" and spin forever. So the ROM is checked
// first: its MD5 must be one of ALE's games, unless the user accepts unknown
// ROMs, and then its name must be.
std::unique_ptr<ale::RomSettings> check_rom(const AtariConfig& c) {
  const std::string env = "atari:" + c.game;
  std::error_code ec;
  const auto size = std::filesystem::file_size(c.rom_path, ec);
  if (ec) throw std::invalid_argument(env + ": cannot read the ROM " + c.rom_path + " (--rom-dir)");
  if (size == 0 || size > kMaxRomBytes)
    throw std::invalid_argument(env + ": " + c.rom_path + " is not an Atari 2600 ROM (" + std::to_string(size) +
                                " bytes; --rom-dir)");
  std::ifstream in(c.rom_path, std::ios::binary);
  if (!in) throw std::invalid_argument(env + ": cannot read the ROM " + c.rom_path + " (--rom-dir)");
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string md5 = ale::stella::MD5(bytes.data(), static_cast<std::uint32_t>(bytes.size()));
  // By content alone (an empty path matches no game's name).
  if (std::unique_ptr<ale::RomSettings> by_md5(ale::buildRomRLWrapper(std::filesystem::path(), md5)); by_md5)
    return by_md5;
  std::unique_ptr<ale::RomSettings> by_name(ale::buildRomRLWrapper(c.rom_path, std::string()));
  if (!by_name)
    throw std::invalid_argument(env + ": ALE does not know the ROM " + c.rom_path +
                                " (neither its name nor its MD5 is one of ALE's games; --rom-dir)");
  if (!c.accept_unknown_rom)
    throw std::invalid_argument(env + ": " + c.rom_path + " has MD5 " + md5 + ", not " + by_name->md5() + ", the " +
                                by_name->rom() +
                                " ROM ALE supports (a bad or different dump); --accept-unknown-rom loads it "
                                "anyway, at your own risk");
  return by_name;
}

// ALE's actions the env offers, in ALE's order: the game's own or all 18.
std::vector<int> game_actions(const AtariConfig& config, const ale::ActionVect& minimal) {
  std::vector<int> actions;
  if (config.minimal_action_set) {
    for (const ale::Action a : minimal) actions.push_back(static_cast<int>(a));
  } else {
    for (int a = 0; a < AtariEnv::kNumActions; ++a) actions.push_back(a);
  }
  return actions;
}

}  // namespace

EnvSpec atari_spec(const AtariConfig& config) {
  const auto rom = check_rom(config);
  const std::vector<int> actions = game_actions(config, rom->getMinimalActionSet());
  EnvSpec spec;
  spec.name = "atari:" + config.game;
  spec.observation = ArraySpec{{config.screen_size, config.screen_size, 1}, DType::kUInt8};
  spec.action = ActionSpec::discrete(static_cast<int>(actions.size()));
  // ALE's names ("PLAYER_A_UPFIRE") without the player: Gymnasium's meanings.
  for (const int a : actions) {
    std::string name = ale::action_to_string(static_cast<ale::Action>(a));
    if (name.rfind("PLAYER_A_", 0) == 0) name.erase(0, 9);
    spec.action_names.push_back(std::move(name));
  }
  spec.observation_names = {"gray"};
  spec.max_episode_steps =
      config.max_episode_frames > 0 ? (config.max_episode_frames + config.frame_skip - 1) / config.frame_skip : 0;
  return spec;
}

AtariEnv::AtariEnv(const AtariConfig& config) : config_(config) {
  spec_ = atari_spec(config_);  // checks the ROM before ALE sees it
  quiet_ale();
  ale_ = std::make_unique<ale::ALEInterface>();
  ale_->setInt("random_seed", 0);  // reseeded by reset(seed)
  ale_->setFloat("repeat_action_probability", static_cast<float>(config_.sticky_action_prob));
  ale_->setInt("frame_skip", 1);  // the repeat is ours, to max-pool its last two frames
  ale_->setInt("max_num_frames_per_episode", config_.max_episode_frames);
  ale_->loadROM(config_.rom_path);
  actions_ = game_actions(config_, ale_->getMinimalActionSet());

  const int h = static_cast<int>(ale_->getScreen().height()), w = static_cast<int>(ale_->getScreen().width());
  previous_.resize(static_cast<std::size_t>(h) * w);
  resize_ = std::make_unique<AreaResize>(h, w, config_.screen_size, config_.screen_size);
  // ALE's grayscale palette as a table: getScreenGrayscale applies the same
  // one to every pixel, here fused into the max-pool and resize. (Screens
  // hold even indices; ALE's look-up of index 255 would read past its table.)
  std::uint8_t index[255];
  for (int i = 0; i < 255; ++i) index[i] = static_cast<std::uint8_t>(i);
  ale_->theOSystem->colourPalette().applyPaletteGrayscale(gray_.data(), index, 255);
  gray_[255] = gray_[254];
}

AtariEnv::~AtariEnv() = default;

void AtariEnv::seed_emulator(std::uint64_t seed) {
  rng_.reseed(seed);
  // ALE's two generators: the environment's (sticky actions) and the
  // console's (the RAM and timer contents a reset powers on with).
  ale_->environment->getEnvironmentRNG().seed(static_cast<std::uint32_t>(rng_.next()));
  ale_->theOSystem->console().system().rng().seed(static_cast<std::uint32_t>(rng_.next()));
}

const std::uint8_t* AtariEnv::screen() const { return ale_->getScreen().getArray(); }

void AtariEnv::reset(std::optional<std::uint64_t> seed, void* obs) {
  if (seed) {
    seed_emulator(*seed);
    restart_ = true;
  }
  if (restart_) {
    ale_->reset_game();
    last_noops_ = config_.noop_max > 0 ? 1 + static_cast<int>(rng_.below(config_.noop_max)) : 0;
    for (int i = 0; i < last_noops_; ++i) {
      ale_->act(ale::PLAYER_A_NOOP);
      if (ale_->game_over()) ale_->reset_game();
    }
  }
  restart_ = true;
  lives_ = ale_->lives();
  resize_->palette(screen(), nullptr, gray_.data(), static_cast<std::uint8_t*>(obs));
}

StepResult AtariEnv::step(const Action& action, void* obs) {
  if (action.index < 0 || action.index >= static_cast<int>(actions_.size()))
    throw std::out_of_range("atari: action " + std::to_string(action.index) + " is not in [0, " +
                            std::to_string(actions_.size()) + ")");
  const auto a = static_cast<ale::Action>(actions_[static_cast<std::size_t>(action.index)]);
  const int skip = config_.frame_skip;
  int reward = 0;
  bool life_lost = false;
  int k = 0;
  for (;; ++k) {
    reward += ale_->act(a);
    if (config_.terminal_on_life_loss) {
      const int lives = ale_->lives();
      life_lost = lives < lives_;
      lives_ = lives;
    }
    if (life_lost || ale_->game_over() || k == skip - 1) break;
    // The one but last frame's palette indices, for the max-pool.
    if (k == skip - 2) std::memcpy(previous_.data(), screen(), previous_.size());
  }
  const bool pooled = k >= 1 && k == skip - 1;
  resize_->palette(screen(), pooled ? previous_.data() : nullptr, gray_.data(), static_cast<std::uint8_t*>(obs));

  StepResult r;
  r.reward = static_cast<float>(reward);
  r.terminated = ale_->game_over(/*with_truncation=*/false) || life_lost;
  r.life_lost = life_lost && !ale_->game_over();
  r.truncated = !r.terminated && ale_->game_truncated();
  // After a lost life that did not end the game, the next reset continues it.
  restart_ = !(life_lost && !ale_->game_over());
  return r;
}

bool AtariEnv::render_rgb(RgbImage& out) {
  const auto& screen = ale_->getScreen();
  out.height = static_cast<int>(screen.height());
  out.width = static_cast<int>(screen.width());
  out.rgb.resize(static_cast<std::size_t>(out.height) * out.width * 3);
  ale_->getScreenRGB(out.rgb);
  return true;
}

#endif  // SEEDRL_WITH_ALE; without ALE nothing builds an AtariEnv (see register.cc)

}  // namespace seedrl::atari
