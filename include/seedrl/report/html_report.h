// A report page as one self-contained HTML file: dygraphs inlined, the chart
// data as JSON in a <script type="application/json"> element, the tables as
// HTML. Every text from a file is escaped: no file can add markup or script.
//
// The page's script also records what it drew in a hidden element,
// #report-state, as JSON: {"ready", "updates", "errors", "charts": {id:
// {"series": [points per series], "rows", "first_rows", "bars", "band",
// "xticks", "yticks", "xlabel", "ylabel", "legend", "legend_in_plot",
// "title_overlaps_ticks", "markers"}}}
// (first_rows: rows when the chart was first drawn; band: points whose low
// and high differ; ticks and labels: the texts as drawn; legend_in_plot:
// whether the legend sits over the plot; title_overlaps_ticks: whether the
// y-axis title touches a tick label; markers: the chart's target markers
// within its x range), which the browser tests read.
// Axis numbers are plain decimals or scientific, frames counted with k/M/B.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "seedrl/report/dygraphs_assets.h"
#include "seedrl/report/report_page.h"

namespace seedrl::report {

struct RenderOptions {
  // > 0: a live page (the dashboard) that fetches "data" + its own query
  // string every this many seconds and redraws from it in place.
  double live_poll_s = 0;
};

std::string render_html(const ReportPage& page, const DygraphsAssets& dygraphs, const RenderOptions& options = {});

// What the page's script draws from: {"charts": [...]}, chart ids as
// render_html gives them; with `with_tables` also "runs_html", the run
// tables as escaped HTML (the live page replaces its tables with it).
nlohmann::json page_data(const ReportPage& page, bool with_tables);

// `json` made safe inside a <script> element: every '<', '>' and '&' as a
// \u escape (which also breaks any "</script").
std::string script_safe_json(std::string json);

}  // namespace seedrl::report
