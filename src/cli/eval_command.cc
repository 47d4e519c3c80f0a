#include <cstdio>
#include <memory>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "seedrl/cli/commands.h"
#include "seedrl/cli/env_flags.h"
#include "seedrl/cli/play_output.h"
#include "seedrl/cli/validators.h"
#include "seedrl/env/registry.h"
#include "seedrl/io/output_path.h"
#include "seedrl/trainer/evaluate.h"
#include "seedrl/trainer/run_directory.h"
#include "seedrl/util/signal_watcher.h"
#include "seedrl/video/gif_recorder.h"

namespace seedrl {

CommandRunner add_eval_command(CLI::App& app) {
  struct Options {
    std::string checkpoint;
    int episodes = 10;
    std::uint64_t seed = 12345;
    bool greedy = false;
    EnvOptions env_options;  // this machine's paths and the Football score only
    bool json = false;
    std::string record;
    long record_max_frames = kDefaultRecordMaxFrames;
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
  add_machine_env_flags(*cmd, o->env_options);
  add_record_flags(*cmd, o->record, o->record_max_frames);
  check_number_options(*cmd);
  return [cmd, o]() -> int {
    if (!cmd->parsed()) return -1;
    if (!o->record.empty())
      check_output_path("--record", o->record, checkpoint_and_run_files(o->checkpoint, "--checkpoint"));
    SignalWatcher stop_watcher(exit_on_stop_signal);
    // The recorder first: its path is checked before the checkpoint loads.
    std::unique_ptr<GifRecorder> recorder;
    if (!o->record.empty()) recorder = std::make_unique<GifRecorder>(o->record, o->record_max_frames);
    CheckpointPolicy p = load_checkpoint_policy(o->checkpoint, o->seed, o->greedy);
    check_env_family_flags(*cmd, p.config.env);  // the checkpoint's env: --football-rewards only for Football
    const EnvOptions env_options = with_machine_env_options(p.config.env_options, o->env_options, *cmd);
    auto env = EnvRegistry::builtin().make(p.config.env, env_options);
    const PlayStats s =
        play_episodes(*env, p.policy, o->episodes, o->seed, nullptr, recorder ? recorder->sink() : nullptr);
    if (recorder) recorder->finish();
    print_play_stats(s, o->json);
    return 0;
  };
}

}  // namespace seedrl
