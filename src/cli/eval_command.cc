#include <cstdio>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "seedrl/cli/commands.h"
#include "seedrl/cli/play_output.h"
#include "seedrl/cli/validators.h"
#include "seedrl/trainer/trainer.h"
#include "seedrl/util/signal_watcher.h"

namespace seedrl {

CommandRunner add_eval_command(CLI::App& app) {
  struct Options {
    std::string checkpoint;
    int episodes = 10;
    std::uint64_t seed = 12345;
    bool greedy = false;
    std::string rom_dir;
    bool json = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("eval", "Play episodes with a checkpoint's policy and print the mean return");
  cmd->option_defaults()->always_capture_default();
  // ExistingFile: a directory would otherwise fail deep in the reader with
  // "basic_filebuf::underflow error reading the file: Is a directory".
  cmd->add_option("--checkpoint", o->checkpoint, "Checkpoint file (LOGDIR/checkpoint.pt)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--episodes", o->episodes, "Episodes to play")->check(in_range(1, 1 << 24));
  cmd->add_option("--seed", o->seed, "Environment and sampling seed");
  cmd->add_flag("--greedy", o->greedy, "Take the most likely action instead of sampling");
  cmd->add_flag("--json", o->json, "Print the statistics as one JSON object");
  cmd->add_option("--rom-dir", o->rom_dir,
                  "Atari ROM directory on this machine (pong.bin, ...; default: $SEEDRL_ATARI_ROMS, else the build's)");
  check_number_options(*cmd);
  return [cmd, o]() -> int {
    if (!cmd->parsed()) return -1;
    SignalWatcher stop_watcher(exit_on_stop_signal);
    print_play_stats(evaluate(o->checkpoint, o->episodes, o->seed, o->greedy, o->rom_dir), o->json);
    return 0;
  };
}

}  // namespace seedrl
