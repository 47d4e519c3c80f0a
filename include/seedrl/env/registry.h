// Builds environments by name ("cartpole", "minatar:breakout", ...). Each env
// family adds its names in its own register_* function, so a new environment
// drops in without touching the pipeline.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "seedrl/env/env.h"

namespace seedrl {

// Per-env options a user may set from the command line; families read what
// they understand and ignore the rest.
struct EnvOptions {
  // Chance that the env repeats the previous action instead of the new one
  // (MinAtar: per step; Atari: per emulator frame). < 0: the family's default,
  // MinAtar 0.1 (its reference's), Atari 0 (SEED RL's; Machado et al. use 0.25).
  double sticky_action_prob = -1;
  bool difficulty_ramping = true;  // MinAtar
  // Atari (ALE), see docs/atari.md.
  std::string rom_dir;              // empty: $SEEDRL_ATARI_ROMS, else the ROMs found at configure time
  int frame_skip = 4;               // emulator frames per step, max-pooled over the last two
  int screen_size = 84;             // the square grayscale observation's side in pixels
  int noop_max = 30;                // 1..noop_max no-op frames at reset (0: none)
  int max_episode_frames = 108000;  // emulator frames, then truncation (0: none)
  bool terminal_on_life_loss = false;
  bool minimal_action_set = false;  // the game's own actions (Gymnasium's default) rather than all 18 (SEED RL's)
  bool accept_unknown_rom = false;  // load a ROM whose MD5 ALE does not know for its game
  // Google Research Football, see docs/football.md.
  std::string football_obs = "smm";                      // smm | simple115v2
  std::string football_rewards = "scoring,checkpoints";  // | scoring
  std::string football_data_dir;                         // empty: $GFOOTBALL_DATA_DIR, else the engine's install
  std::string football_font;                             // empty: $GFOOTBALL_FONT, else the engine's install
  // Engine steps the shot button stays pressed when the agent picks `shot`
  // (1: gfootball's own action, pressed for one step). An opt-in macro: the
  // engine sets a shot's power by how long the button is held.
  int football_shot_hold = 1;
  // Chance an episode holds shots for football_shot_hold steps; the rest
  // press gfootball's one-step shot. Below 1 the policy, unable to tell which
  // episode it is in, must keep pressing `shot` itself to shoot hard.
  double football_shot_hold_prob = 1;
  // >= 0: that chance moves linearly from football_shot_hold_prob at the
  // run's start to this at its --max-frames (a curriculum: the macro shows
  // that shooting pays, then the hold is asked of the policy bit by bit).
  // < 0: it stays. Only training's local actors follow the run's progress.
  double football_shot_hold_prob_final = -1;
  // Wrappers, applied by make() to every env in this order:
  int action_repeat = 1;  // repeat each action, summing rewards
  int frame_stack = 0;    // stack the last k observations on the last axis (0: the env's default, 1 but for Atari)
  int time_limit = 0;     // > 0: truncate episodes after this many (agent) steps
};

class EnvRegistry {
 public:
  using Factory = std::function<EnvPtr(const EnvOptions&)>;

  // The registry with every built-in environment.
  static const EnvRegistry& builtin();

  void add(std::string name, std::string description, Factory factory);
  bool contains(const std::string& name) const;
  // Our name for `name` as users coming from Gymnasium write it: any case,
  // a "-vN" version, '/' for ':', CamelCase for snake_case ("CartPole-v1" ->
  // cartpole, "MinAtar/SpaceInvaders-v1" -> minatar:space_invaders,
  // "ALE/Pong-v5" -> atari:pong, "HalfCheetah-v4" -> mujoco:halfcheetah,
  // "GFootball/academy_empty_goal_close-v0" -> football:academy_empty_goal_close).
  // `name` itself when registered; "" when nothing matches.
  std::string canonical(const std::string& name) const;
  // The registered name nearest a mistyped one ("" when none is close).
  std::string closest(const std::string& name) const;
  // Throws std::invalid_argument naming the valid names for an unknown name.
  EnvPtr make(const std::string& name, const EnvOptions& options = {}) const;
  std::vector<std::string> names() const;
  const std::string& description(const std::string& name) const;
  // The frame stack make() applies to `name` under `options`.
  int frame_stack(const std::string& name, const EnvOptions& options) const;

  // A family: every name "<prefix><member>" for a non-empty member, built by
  // one factory (atari:<game>, one per ROM file). Its members exist only at
  // run time: `list` says which are available under the given options (for
  // `seedrl envs`); the factory throws a one-line reason for any other.
  struct Family {
    std::string prefix;  // ends in ':'
    std::string description;
    std::function<std::vector<std::string>(const EnvOptions&)> list;
    std::function<EnvPtr(const std::string& member, const EnvOptions&)> make;
    std::string unavailable;        // what `seedrl envs` prints when `list` finds none
    std::string member = "<name>";  // how messages name a member: atari:<game>
    int frame_stack = 1;            // the stack make() applies when EnvOptions::frame_stack is 0
    // Or, when set, that stack as the options choose it (football: 4 maps, 1 vector).
    std::function<int(const EnvOptions&)> frame_stack_for;
    // A member's spec without making it (optional; else spec() makes one).
    std::function<EnvSpec(const std::string& member, const EnvOptions&)> spec;
  };
  void add_family(Family family);
  // The spec make(name, options) would have, with the same wrappers, without
  // starting the env where its family can say it (Atari: no emulator).
  EnvSpec spec(const std::string& name, const EnvOptions& options) const;
  const std::vector<Family>& families() const { return families_; }

 private:
  // make()'s wrappers around a member or entry `env` of `name`.
  EnvPtr wrap(const std::string& name, const EnvOptions& options, EnvPtr env) const;
  struct Entry {
    std::string description;
    Factory factory;
  };
  const Family* family_of(const std::string& name) const;
  std::map<std::string, Entry> entries_;
  std::vector<Family> families_;
};

// One per family; each lives beside its environments.
void register_classic_control(EnvRegistry& registry);
void register_minatar(EnvRegistry& registry);
void register_mujoco(EnvRegistry& registry);
void register_atari(EnvRegistry& registry);
void register_football(EnvRegistry& registry);

}  // namespace seedrl
