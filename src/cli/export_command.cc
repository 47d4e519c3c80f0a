#include <memory>
#include <string>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "seedrl/cli/commands.h"
#include "seedrl/io/output_path.h"
#include "seedrl/trainer/export_weights.h"
#include "seedrl/trainer/run_directory.h"

namespace seedrl {

CommandRunner add_export_command(CLI::App& app) {
  struct Options {
    std::string checkpoint, output;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "export", "Write a checkpoint's network weights as a dict that PyTorch's torch.load reads (docs/export.md)");
  // ExistingFile: a directory would otherwise fail deep in the reader.
  cmd->add_option("--checkpoint", o->checkpoint, "Checkpoint file (LOGDIR/checkpoint.pt or LOGDIR/best.pt)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("-o,--output", o->output, "File to write (e.g. weights.pt); replaced atomically")->required();
  return [cmd, o]() -> int {
    if (!cmd->parsed()) return -1;
    // Before the checkpoint loads: -o onto it would replace the run's state.
    check_output_path("-o", o->output, checkpoint_and_run_files(o->checkpoint, "--checkpoint"));
    export_weights(o->checkpoint, o->output);
    fmt::print("{}: the weights of {} (torch.load gives a dict; docs/export.md)\n", o->output, o->checkpoint);
    return 0;
  };
}

}  // namespace seedrl
