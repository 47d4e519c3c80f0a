#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "seedrl/cli/commands.h"
#include "seedrl/io/output_path.h"
#include "seedrl/report/report.h"
#include "seedrl/report/video_embed.h"
#include "seedrl/trainer/run_directory.h"

namespace seedrl {

namespace {

// What the report reads, and the runs' state: -o goes over none of them. A
// run's report.html may be replaced: it is where a report of it goes.
std::vector<KeptFile> report_inputs(const std::vector<std::string>& logdirs, const std::string& bench) {
  std::vector<KeptFile> kept;
  for (const auto& dir : logdirs) {
    for (std::string& file : run_files(dir))
      if (std::filesystem::path(file).filename() != "report.html") kept.push_back({std::move(file), "the run file"});
    kept.push_back({report::video_path(dir), "the run file"});
  }
  if (!bench.empty()) kept.push_back({bench, "--bench"});
  return kept;
}

}  // namespace

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
    if (!o->output.empty()) check_output_path("-o", o->output, report_inputs(o->logdirs, o->bench));
    report::write_report(o->logdirs, output, o->bench);
    fmt::print("wrote {}\n", output);
    return 0;
  };
}

}  // namespace seedrl
