#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "seedrl/cli/commands.h"
#include "seedrl/report/report.h"

namespace seedrl {

CommandRunner add_report_command(CLI::App& app) {
  struct Options {
    std::vector<std::string> logdirs;
    std::string output, bench;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "report", "Write an HTML report of training runs (charts and tables in one file that opens offline)");
  cmd->add_option("logdirs", o->logdirs, "Run directories (train --logdir); seeds of one config are averaged")
      ->required();
  cmd->add_option("-o,--output", o->output,
                  "The HTML file (default: LOGDIR/report.html for one run, else ./report.html)");
  cmd->add_option("--bench", o->bench, "Also show the figures of a `seedrl bench --json` file");
  return [cmd, o]() -> int {
    if (!cmd->parsed()) return -1;
    const std::string output = o->output.empty() ? report::default_report_path(o->logdirs) : o->output;
    report::write_report(o->logdirs, output, o->bench);
    fmt::print("wrote {}\n", output);
    return 0;
  };
}

}  // namespace seedrl
