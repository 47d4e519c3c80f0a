// A report page as one self-contained HTML file: dygraphs inlined, the chart
// data as JSON in a <script type="application/json"> element, the tables as
// HTML. Every text from a file is escaped: no file can add markup or script.
#pragma once

#include <string>

#include "seedrl/report/dygraphs_assets.h"
#include "seedrl/report/report_page.h"

namespace seedrl::report {

std::string render_html(const ReportPage& page, const DygraphsAssets& dygraphs);

// `json` made safe inside a <script> element: every '<', '>' and '&' as a
// \u escape (which also breaks any "</script").
std::string script_safe_json(std::string json);

}  // namespace seedrl::report
