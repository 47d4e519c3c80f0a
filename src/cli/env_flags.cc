#include "seedrl/cli/env_flags.h"

#include <stdexcept>
#include <vector>

#include "seedrl/cli/validators.h"

namespace seedrl {

void add_machine_env_flags(CLI::App& cmd, EnvOptions& o) {
  cmd.add_option("--rom-dir", o.rom_dir,
                 "Atari ROM directory (pong.bin, ...; default: $SEEDRL_ATARI_ROMS, else the build's)");
  cmd.add_flag(
      "--accept-unknown-rom", o.accept_unknown_rom,
      "Atari: load a ROM whose MD5 is not the one ALE supports for its game (at your own risk: ALE may hang on it)");
  cmd.add_option("--football-rewards", o.football_rewards,
                 "Football: the reward, scoring (goals alone) or scoring,checkpoints (also +0.1 per ring around the "
                 "goal first reached with the ball) (playing a checkpoint: default the run's)")
      ->check(one_of({"scoring", "scoring,checkpoints"}));
  cmd.add_option("--football-shot-hold", o.football_shot_hold,
                 "Football: engine steps the shot button stays pressed when the agent picks shot, as one agent "
                 "step (1: gfootball's action; the engine fires a held shot at full power after about 6) "
                 "(playing a checkpoint: default the run's)")
      ->check(in_range(1, 30));
  cmd.add_option("--football-shot-hold-prob", o.football_shot_hold_prob,
                 "Football: chance an episode holds shots for --football-shot-hold steps; the others press "
                 "gfootball's one-step shot, so the policy learns to keep pressing shot itself "
                 "(playing a checkpoint: default the run's)")
      ->check(in_range(0.0, 1.0));
  cmd.add_option("--football-data-dir", o.football_data_dir,
                 "Football engine data folder (default: $GFOOTBALL_DATA_DIR, else the build's)");
  cmd.add_option("--football-font", o.football_font,
                 "Football engine font (default: $GFOOTBALL_FONT, else the build's)");
}

const std::set<std::string>& machine_env_flag_names() {
  static const std::set<std::string> names = {"--rom-dir",
                                              "--accept-unknown-rom",
                                              "--football-rewards",
                                              "--football-shot-hold",
                                              "--football-shot-hold-prob",
                                              "--football-data-dir",
                                              "--football-font"};
  return names;
}

EnvOptions with_machine_env_options(EnvOptions run, const EnvOptions& machine, const CLI::App& cmd) {
  // Checkpoints do not keep the ROM directory: it belongs to the machine.
  run.rom_dir = machine.rom_dir;
  run.accept_unknown_rom = machine.accept_unknown_rom;
  if (!machine.football_data_dir.empty()) run.football_data_dir = machine.football_data_dir;
  if (!machine.football_font.empty()) run.football_font = machine.football_font;
  if (cmd.count("--football-rewards") > 0) run.football_rewards = machine.football_rewards;
  if (cmd.count("--football-shot-hold") > 0) run.football_shot_hold = machine.football_shot_hold;
  // An annealed run's policy was last trained at the end of its curriculum.
  if (run.football_shot_hold_prob_final >= 0) run.football_shot_hold_prob = run.football_shot_hold_prob_final;
  run.football_shot_hold_prob_final = -1;
  if (cmd.count("--football-shot-hold-prob") > 0) run.football_shot_hold_prob = machine.football_shot_hold_prob;
  return run;
}

void add_env_option_flags(CLI::App& cmd, EnvOptions& o) {
  cmd.add_option("--sticky-action-prob", o.sticky_action_prob,
                 "MinAtar and Atari: chance of repeating the previous action (MinAtar: per step, default 0.1; "
                 "Atari: per emulator frame, default 0)")
      ->check(in_range(0.0, 1.0))
      ->default_str("auto");
  cmd.add_flag("--difficulty-ramping,!--no-difficulty-ramping", o.difficulty_ramping,
               "MinAtar: the game speeds up as it goes, as MinAtar's own default")
      ->default_str(o.difficulty_ramping ? "true" : "false");
  cmd.add_option("--football-obs", o.football_obs,
                 "Football: the observation, smm (72x96 Super Mini Map, 4 stacked) or simple115v2 (float32[115])")
      ->check(CLI::IsMember({"smm", "simple115v2"}));
  add_machine_env_flags(cmd, o);
  cmd.add_option("--frame-skip", o.frame_skip, "Atari: emulator frames per step, max-pooled over the last two")
      ->check(in_range(1, 1000));
  cmd.add_option("--screen-size", o.screen_size,
                 "Atari: the grayscale observation's side in pixels (210x160 resized by area averaging)")
      ->check(in_range(8, 160));
  cmd.add_option("--noop-max", o.noop_max, "Atari: 1 to this many no-op frames at reset (0: none)")
      ->check(in_range(0, 100000));
  cmd.add_option("--max-episode-frames", o.max_episode_frames,
                 "Atari: truncate an episode after this many emulator frames (0: never)")
      ->check(in_range(0, 1 << 30));
  cmd.add_flag("--terminal-on-life-loss,!--no-terminal-on-life-loss", o.terminal_on_life_loss,
               "Atari: a lost life ends the episode (the next reset continues the game)")
      ->default_str(o.terminal_on_life_loss ? "true" : "false");
  cmd.add_flag("--minimal-action-set", o.minimal_action_set,
               "Atari: the game's own actions (Gymnasium's default; Pong 6, Breakout 4) instead of all 18");
  cmd.add_option("--action-repeat", o.action_repeat, "Repeat each action this many env steps")
      ->check(in_range(1, 1000));
  cmd.add_option("--frame-stack", o.frame_stack,
                 "Stack the last k observations (default: 4 for Atari and football's maps, else 1)")
      ->check(in_range(1, 64))
      ->default_str("auto");
  cmd.add_option("--time-limit", o.time_limit, "Truncate episodes after this many steps (0: the env's own)")
      ->check(in_range(0, 1 << 30));
}

namespace {

struct FamilyFlag {
  const char* flag;
  std::vector<std::string> prefixes;  // the families that read it
  const char* families;               // as errors name them
};

const std::vector<FamilyFlag>& family_flags() {
  static const std::vector<FamilyFlag> table = {
      {"--sticky-action-prob", {"minatar:", "atari:"}, "MinAtar and Atari"},
      {"--difficulty-ramping", {"minatar:"}, "MinAtar"},
      {"--football-obs", {"football:"}, "Football"},
      {"--football-rewards", {"football:"}, "Football"},
      {"--football-shot-hold", {"football:"}, "Football"},
      {"--football-shot-hold-prob", {"football:"}, "Football"},
      {"--football-shot-hold-prob-final", {"football:"}, "Football"},
      {"--frame-skip", {"atari:"}, "Atari"},
      {"--screen-size", {"atari:"}, "Atari"},
      {"--noop-max", {"atari:"}, "Atari"},
      {"--max-episode-frames", {"atari:"}, "Atari"},
      {"--terminal-on-life-loss", {"atari:"}, "Atari"},
      {"--minimal-action-set", {"atari:"}, "Atari"},
  };
  return table;
}

}  // namespace

void check_env_family_flags(const CLI::App& cmd, const std::string& env) {
  for (const FamilyFlag& f : family_flags()) {
    const CLI::Option* opt = cmd.get_option_no_throw(f.flag);
    if (opt == nullptr || opt->count() == 0) continue;
    bool reads = false;
    for (const std::string& prefix : f.prefixes) reads = reads || env.rfind(prefix, 0) == 0;
    if (!reads)
      throw std::invalid_argument(std::string(f.flag) + ": " + f.families + " only; " + env + " would ignore it");
  }
}

}  // namespace seedrl
