// `seedrl report`: a self-contained HTML page of one or more training runs
// (see docs/report.md), written by the command and by `seedrl train` into
// its --logdir.
#pragma once

#include <string>
#include <vector>

#include "seedrl/report/report_page.h"

namespace seedrl::report {

// What the page shows for the runs in `logdirs` (and the bench JSON file at
// `bench_path`, "" for none): the one source of both the report file and
// the live dashboard's data. Bad input throws as build_report does.
ReportPage build_page(const std::vector<std::string>& logdirs, const std::string& bench_path = "");

// The page for the runs in `logdirs`, with a table of the bench JSON file
// at `bench_path` ("" for none). Bad input throws std::invalid_argument, one
// line naming the logdir or file at fault; a missing dygraphs
// std::runtime_error.
std::string build_report(const std::vector<std::string>& logdirs, const std::string& bench_path = "");

// build_report, written atomically to `output` (io/replace_file.h; a failed
// write throws std::system_error and leaves the previous file).
void write_report(const std::vector<std::string>& logdirs, const std::string& output,
                  const std::string& bench_path = "");

// Where a report goes without -o: into the logdir for one run, else the
// working directory.
std::string default_report_path(const std::vector<std::string>& logdirs);

}  // namespace seedrl::report
