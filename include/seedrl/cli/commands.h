// The seedrl command line: each command registers its flags on the CLI11 app
// and returns the function that runs it. One file per command under src/cli/.
#pragma once

#include <functional>

namespace CLI {
class App;
}

namespace seedrl {

// Runs after a successful parse; returns the process exit status. It owns the
// variables the command's flags write into: keep it as long as the app.
using CommandRunner = std::function<int()>;

[[nodiscard]] CommandRunner add_train_command(CLI::App& app);
[[nodiscard]] CommandRunner add_eval_command(CLI::App& app);
[[nodiscard]] CommandRunner add_envs_command(CLI::App& app);
[[nodiscard]] CommandRunner add_play_command(CLI::App& app);
[[nodiscard]] CommandRunner add_bench_command(CLI::App& app);
[[nodiscard]] CommandRunner add_actor_command(CLI::App& app);
[[nodiscard]] CommandRunner add_report_command(CLI::App& app);
[[nodiscard]] CommandRunner add_export_command(CLI::App& app);

}  // namespace seedrl
