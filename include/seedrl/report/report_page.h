// What a report page shows, ready to render: its charts (series of points)
// and its tables. Text here is as read from files; rendering escapes it.
#pragma once

#include <string>
#include <vector>

#include "seedrl/report/run_data.h"

namespace seedrl::report {

struct ChartPoint {
  double x = 0, low = 0, y = 0, high = 0;  // low and high: the band, with bars only
};

struct ChartSeries {
  std::string name;
  std::vector<ChartPoint> points;  // x increasing
};

// A moment marked on a chart: a run reaching its --target-return.
struct ChartMarker {
  double x = 0, y = 0;
  std::string label;
};

struct Chart {
  std::string title;
  std::string xlabel, ylabel;  // each axis's quantity, with its unit where it has one
  bool bars = false;           // each point has a band (low, high) drawn around y
  std::vector<ChartSeries> series;
  std::vector<ChartMarker> markers;  // drawn as a dashed vertical line with its label
};

struct RunTables {
  std::string name, logdir;
  bool has_config = false;
  Table config, summary;
  std::string video_html;  // its video.gif inlined, or a note (report/video_embed.h); "" without one
};

struct ReportPage {
  std::string title;
  std::vector<Chart> return_charts;  // episode return against frames and wall time
  std::vector<Chart> metric_charts;  // one per other metric
  std::vector<std::string> notes;    // lines under the return charts (how seeds were aggregated)
  std::vector<RunTables> runs;
  std::string bench_path;  // "" without --bench
  Table bench;
};

}  // namespace seedrl::report
