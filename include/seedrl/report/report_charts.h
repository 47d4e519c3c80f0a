// The charts of a report from its runs: episode return against frames and
// against wall time (a group of seeds as its mean with a bootstrap band, see
// seed_aggregate.h), and one chart per other metric, one series per run.
#pragma once

#include <string>
#include <vector>

#include "seedrl/report/report_page.h"
#include "seedrl/report/run_data.h"

namespace seedrl::report {

// A label per run: its directory's name, or its path as given where two
// runs share a name.
std::vector<std::string> run_names(const std::vector<RunData>& runs);

// `groups` as group_by_config returns them; `names` as run_names does.
// Fills page.return_charts, page.metric_charts and page.notes.
void add_charts(const std::vector<RunData>& runs, const std::vector<std::vector<std::size_t>>& groups,
                const std::vector<std::string>& names, ReportPage& page);

}  // namespace seedrl::report
