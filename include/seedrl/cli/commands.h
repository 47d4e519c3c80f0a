// The seedrl command line: each command registers its flags on the CLI11 app
// and returns the function that runs it. One file per command under src/cli/.
#pragma once

#include <functional>

namespace CLI {
class App;
}

namespace seedrl {

// Runs after a successful parse; returns the process exit status.
using CommandRunner = std::function<int()>;

CommandRunner add_train_command(CLI::App& app);
CommandRunner add_eval_command(CLI::App& app);
CommandRunner add_envs_command(CLI::App& app);
CommandRunner add_play_command(CLI::App& app);
CommandRunner add_bench_command(CLI::App& app);
CommandRunner add_actor_command(CLI::App& app);
CommandRunner add_report_command(CLI::App& app);

}  // namespace seedrl
