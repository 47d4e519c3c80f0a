#include "seedrl/report/report.h"

#include <filesystem>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "seedrl/io/input_file.h"
#include "seedrl/io/replace_file.h"
#include "seedrl/report/dygraphs_assets.h"
#include "seedrl/report/html_report.h"
#include "seedrl/report/json_table.h"
#include "seedrl/report/report_charts.h"
#include "seedrl/report/run_groups.h"
#include "seedrl/report/text.h"
#include "seedrl/report/video_embed.h"

namespace seedrl::report {

namespace {

constexpr std::size_t kMaxBenchBytes = std::size_t{16} << 20;

Table load_bench(const std::string& path) {
  const std::string text = read_regular_file(path, "--bench", kMaxBenchBytes);
  try {
    return flatten_json(nlohmann::json::parse(text));
  } catch (const nlohmann::json::parse_error& e) {
    throw std::invalid_argument("--bench " + one_line(path) + ": not JSON (syntax error at byte " +
                                std::to_string(e.byte) + ")");
  } catch (const nlohmann::json::out_of_range&) {
    throw std::invalid_argument("--bench " + one_line(path) + ": not JSON (a number beyond a double's range)");
  }
}

}  // namespace

ReportPage build_page(const std::vector<std::string>& logdirs, const std::string& bench_path) {
  if (logdirs.empty()) throw std::invalid_argument("report: no run directory given");
  std::vector<RunData> runs;
  for (const auto& dir : logdirs) runs.push_back(load_run(dir));
  const std::vector<std::string> names = run_names(runs);

  ReportPage page;
  page.title = "seedrl report: ";
  for (std::size_t i = 0; i < names.size() && i < 6; ++i) page.title += (i ? ", " : "") + names[i];
  if (names.size() > 6) page.title += ", …";
  add_charts(runs, group_by_config(runs), names, page);
  for (std::size_t i = 0; i < runs.size(); ++i)
    page.runs.push_back(
        {names[i], runs[i].logdir, runs[i].has_config, runs[i].config, runs[i].summary, video_html(runs[i].logdir)});
  if (!bench_path.empty()) {
    page.bench_path = bench_path;
    page.bench = load_bench(bench_path);
  }
  return page;
}

std::string build_report(const std::vector<std::string>& logdirs, const std::string& bench_path) {
  if (logdirs.empty()) throw std::invalid_argument("report: no run directory given");
  // Before the runs: a machine without dygraphs learns so at once.
  const DygraphsAssets dygraphs = load_dygraphs();
  return render_html(build_page(logdirs, bench_path), dygraphs);
}

void write_report(const std::vector<std::string>& logdirs, const std::string& output, const std::string& bench_path) {
  replace_file(output, build_report(logdirs, bench_path));
}

std::string default_report_path(const std::vector<std::string>& logdirs) {
  if (logdirs.size() == 1) return (std::filesystem::path(logdirs.front()) / "report.html").string();
  return "report.html";
}

}  // namespace seedrl::report
