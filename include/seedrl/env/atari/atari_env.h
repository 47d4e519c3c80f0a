// An Atari 2600 game on the Arcade Learning Environment (ALE), preprocessed
// as SEED RL's atari_preprocessing.py does (after Machado et al. 2018):
//
// - every step repeats the action for `frame_skip` emulator frames, sums
//   their rewards, and shows the pixel-wise maximum of the last two frames;
// - grayscale from ALE's own grayscale palette (getScreenGrayscale's),
//   resized to 84x84 (or `screen_size` square) by area averaging (AreaResize):
//   uint8[84,84,1] (the registry stacks 4); palette look-up, max-pool and
//   resize in one pass;
// - the full action set (18), in ALE's order, or with `minimal_action_set`
//   the game's own (ALE's getMinimalActionSet, Gymnasium's default: Pong's 6,
//   Breakout's 4), in ALE's order of that set;
// - reset plays 1 to `noop_max` no-op frames (uniform; SEED RL, like other
//   no-op starts, always plays at least one);
// - sticky actions: each emulator frame keeps the previous action with
//   probability `sticky_action_prob` (ALE's repeat_action_probability);
// - `max_episode_frames` emulator frames (no-ops included) truncate the
//   episode; a game over terminates it;
// - `terminal_on_life_loss`: a lost life terminates the episode, and the
//   next reset continues the same game (no emulator reset, no no-ops) until
//   the game is over.
//
// A step cut short by the episode's end after one frame shows that frame.
// One ALEInterface per env; the env's random stream (no-ops) and ALE's own
// (sticky actions, the console's power-on state) are reseeded by
// reset(seed). Steps allocate nothing and write the observation straight
// into the caller's buffer.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "seedrl/env/atari/area_resize.h"
#include "seedrl/env/env.h"
#include "seedrl/env/registry.h"
#include "seedrl/env/render.h"
#include "seedrl/util/rng.h"

namespace ale {
class ALEInterface;
}

namespace seedrl::atari {

struct AtariConfig {
  std::string game;      // ALE's name, e.g. "pong"
  std::string rom_path;  // its ROM file
  int frame_skip = 4;
  int screen_size = 84;  // the observation's side: 210x160 resized to screen_size x screen_size
  int noop_max = 30;
  int max_episode_frames = 108000;
  double sticky_action_prob = 0;
  bool terminal_on_life_loss = false;
  bool minimal_action_set = false;
  // Load a ROM whose MD5 is not the one ALE knows for its game (a bad dump,
  // a hack, random bytes): ALE may hang or print garbage on such a file.
  bool accept_unknown_rom = false;
};

// The config of atari:<game> under `options` (ROM located as roms.h says).
// Throws std::invalid_argument with one line naming what is wrong.
AtariConfig atari_config(const std::string& game, const EnvOptions& options);

// The spec of atari:<game> under `config`, without starting an emulator
// (`seedrl envs` lists a hundred games); its ROM is checked as the env's
// constructor checks it. Needs ALE (throws std::invalid_argument without).
EnvSpec atari_spec(const AtariConfig& config);

class AtariEnv final : public Env, public RgbRenderable {
 public:
  static constexpr int kScreenSize = 84;  // the default side (AtariConfig::screen_size)
  static constexpr int kNumActions = 18;  // the full set; spec().action.num_actions with minimal_action_set

  // Loads the ROM; throws std::invalid_argument when ALE does not know it.
  explicit AtariEnv(const AtariConfig& config);
  ~AtariEnv() override;

  const EnvSpec& spec() const override { return spec_; }
  void reset(std::optional<std::uint64_t> seed, void* obs) override;
  StepResult step(const Action& action, void* obs) override;
  // ALE's own RGB screen (getScreenRGB), 210x160: the last emulator frame
  // of the step, not the max-pooled observation.
  bool render_rgb(RgbImage& out) override;
  // The console's 60 Hz over the frame skip.
  double render_fps() const override { return 60.0 / config_.frame_skip; }

  const AtariConfig& config() const { return config_; }
  // The emulator, for tests and the benchmark's raw loop.
  ale::ALEInterface& ale() { return *ale_; }
  // No-op frames played by the last reset that restarted the game.
  int last_noops() const { return last_noops_; }

 private:
  const std::uint8_t* screen() const;  // ALE's current frame: palette indices
  void seed_emulator(std::uint64_t seed);

  AtariConfig config_;
  EnvSpec spec_;
  std::vector<int> actions_;  // ALE's action for each of ours
  std::unique_ptr<ale::ALEInterface> ale_;
  Rng rng_;
  std::vector<std::uint8_t> previous_;    // the one but last frame of a step, palette indices
  std::array<std::uint8_t, 256> gray_{};  // ALE's grayscale value of each palette index
  std::unique_ptr<AreaResize> resize_;
  int lives_ = 0;
  int last_noops_ = 0;
  bool restart_ = true;  // the next reset restarts the game (false: after a lost life)
};

}  // namespace seedrl::atari
