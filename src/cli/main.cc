// seedrl: one binary, one command per file under src/cli/.
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include "seedrl/cli/commands.h"
#include "seedrl/cli/help_formatter.h"
#include "seedrl/cli/renamed_flags.h"
#include "seedrl/cli/unknown_flag.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/util/blas_kernels.h"
#include "seedrl/util/closest_name.h"
#include "seedrl/util/error_text.h"
#include "seedrl/util/heap_tuning.h"
#include "seedrl/util/signal_watcher.h"

int main(int argc, char** argv) {
  seedrl::use_native_blas_kernels(argv);  // may start this program again, once
  if (const std::string error = seedrl::blas_core_setting_error(); !error.empty()) {
    fmt::print(stderr, "seedrl: error: {}\n", error);
    return 2;
  }
  // Before any thread exists, so every thread inherits the mask and SIGINT /
  // SIGTERM reach only the trainer's SignalWatcher.
  seedrl::block_stop_signals();
  seedrl::keep_freed_memory_in_heap();
  CLI::App app{"seedrl: SEED RL training in one native process"};
  app.require_subcommand(1);
  app.formatter(std::make_shared<seedrl::HelpFormatter>());  // before the commands, which copy it
  app.set_version_flag("--version", "seedrl 0.1.0");
  std::vector<seedrl::CommandRunner> commands{seedrl::add_train_command(app),  seedrl::add_eval_command(app),
                                              seedrl::add_envs_command(app),   seedrl::add_play_command(app),
                                              seedrl::add_bench_command(app),  seedrl::add_actor_command(app),
                                              seedrl::add_report_command(app), seedrl::add_export_command(app)};
  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    std::string valid;
    for (const auto* sub : app.get_subcommands({})) {
      known |= sub->get_name() == argv[1];
      valid += (valid.empty() ? "" : ", ") + sub->get_name();
    }
    if (!known) {
      std::vector<std::string> names;
      for (const auto* sub : app.get_subcommands({})) names.push_back(sub->get_name());
      const std::string near = seedrl::closest_name(argv[1], names);
      fmt::print(stderr, "seedrl: error: unknown command '{}' ({}valid: {})\n", argv[1],
                 near.empty() ? "" : "did you mean '" + near + "'? ", valid);
      return 2;
    }
  }
  const seedrl::CurrentFlagNames args(argc, argv);
  try {
    app.parse(args.argc(), args.argv());
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    const std::string unknown = seedrl::unknown_flag_message(app, args.argc(), args.argv());
    fmt::print(stderr, "seedrl: error: {}\n", args.as_typed(unknown.empty() ? std::string(e.what()) : unknown));
    return 2;
  }
  // Only once the command line parsed, so that a bad one stays one line.
  for (const auto& [typed, current] : args.renamed()) spdlog::warn("{}", seedrl::renamed_flag_warning(typed, current));
  try {
    for (auto& run : commands) {
      const int status = run();
      if (status >= 0) return status;
    }
    return 2;
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "seedrl: error: {}\n", args.as_typed(e.what()));
    return 2;
  } catch (const seedrl::CheckpointError& e) {
    fmt::print(stderr, "seedrl: error: {}\n", args.as_typed(e.what()));
    return 2;
  } catch (const std::exception& e) {
    spdlog::error("{}", args.as_typed(seedrl::error_text(e)));
    return 1;
  }
}
