#include "seedrl/report/html_report.h"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "seedrl/report/text.h"

namespace seedrl::report {

namespace {

// Draws every chart from the data element. dygraphs wants one row per x with
// a column per series (null where a series has no point there).
constexpr const char* kDrawCharts = R"JS(
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("report-data").textContent);
  data.charts.forEach(function (chart) {
    var element = document.getElementById(chart.id);
    if (!chart.series.length) {
      element.textContent = "no values yet";
      element.className += " empty";
      return;
    }
    var xs = [];
    chart.series.forEach(function (s) { s.points.forEach(function (p) { xs.push(p[0]); }); });
    xs.sort(function (a, b) { return a - b; });
    xs = xs.filter(function (x, i) { return i === 0 || x !== xs[i - 1]; });
    var row_of = new Map();
    var rows = xs.map(function (x, i) {
      row_of.set(x, i);
      var row = [x];
      chart.series.forEach(function () { row.push(null); });
      return row;
    });
    chart.series.forEach(function (s, k) {
      s.points.forEach(function (p) {
        rows[row_of.get(p[0])][k + 1] = chart.bars ? [p[1], p[2], p[3]] : p[1];
      });
    });
    // Names arrive HTML-escaped: dygraphs writes labels into the legend as HTML.
    new Dygraph(element, rows, {
      labels: [chart.xlabel].concat(chart.series.map(function (s) { return s.name; })),
      title: chart.title,
      xlabel: chart.xlabel,
      customBars: chart.bars,
      connectSeparatedPoints: true,
      legend: "always",
      labelsSeparateLines: true,
      labelsKMB: true,
      animatedZooms: false
    });
  });
})();
)JS";

constexpr const char* kStyle = R"CSS(
body { font-family: sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.5em; } h3 { font-size: 1em; }
.chart { width: 100%; max-width: 1000px; height: 360px; margin-bottom: 2.5em; }
img.video { max-width: 100%; image-rendering: pixelated; border: 1px solid #ccc; }
.grid { display: flex; flex-wrap: wrap; gap: 1em 2em; }
.small { width: 460px; height: 240px; margin-bottom: 2.5em; }
.empty { color: #888; height: auto; }
.note { color: #555; font-size: 0.9em; max-width: 1000px; }
table { border-collapse: collapse; margin: 0.5em 2em 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: left; vertical-align: top; }
th { background: #f4f4f4; font-weight: normal; font-family: monospace; }
td { font-family: monospace; white-space: pre-wrap; word-break: break-all; }
.tables { display: flex; flex-wrap: wrap; align-items: flex-start; }
)CSS";

std::string table_html(const Table& rows, const std::string& caption) {
  std::string out = "<table><caption>" + html_escape(caption) + "</caption>\n";
  for (const auto& [key, value] : rows)
    out += "<tr><th>" + html_escape(key) + "</th><td>" + html_escape(value) + "</td></tr>\n";
  return out + "</table>\n";
}

nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

nlohmann::json chart_json(const Chart& chart, const std::string& id) {
  nlohmann::json series = nlohmann::json::array();
  for (const ChartSeries& s : chart.series) {
    nlohmann::json points = nlohmann::json::array();
    for (const ChartPoint& p : s.points) {
      if (chart.bars) points.push_back({number(p.x), number(p.low), number(p.y), number(p.high)});
      else points.push_back({number(p.x), number(p.y)});
    }
    series.push_back({{"name", html_escape(s.name)}, {"points", std::move(points)}});
  }
  return {{"id", id}, {"title", html_escape(chart.title)}, {"xlabel", html_escape(chart.xlabel)},
          {"bars", chart.bars}, {"series", std::move(series)}};
}

}  // namespace

std::string script_safe_json(std::string json) {
  std::string out;
  out.reserve(json.size());
  for (const char c : json) {
    if (c == '<') out += "\\u003c";
    else if (c == '>') out += "\\u003e";
    else if (c == '&') out += "\\u0026";
    else out += c;
  }
  return out;
}

std::string render_html(const ReportPage& page, const DygraphsAssets& dygraphs) {
  nlohmann::json charts = nlohmann::json::array();
  std::string body;
  body += "<h1>" + html_escape(page.title) + "</h1>\n<h2>Episode return</h2>\n";
  int next_id = 0;
  for (const Chart& c : page.return_charts) {
    const std::string id = fmt::format("chart{}", next_id++);
    body += "<div class=\"chart\" id=\"" + id + "\"></div>\n";
    charts.push_back(chart_json(c, id));
  }
  for (const std::string& note : page.notes) body += "<p class=\"note\">" + html_escape(note) + "</p>\n";
  if (!page.metric_charts.empty()) {
    body += "<h2>Metrics</h2>\n<div class=\"grid\">\n";
    for (const Chart& c : page.metric_charts) {
      const std::string id = fmt::format("chart{}", next_id++);
      body += "<div class=\"small\" id=\"" + id + "\"></div>\n";
      charts.push_back(chart_json(c, id));
    }
    body += "</div>\n";
  }
  body += "<h2>Runs</h2>\n";
  for (const RunTables& run : page.runs) {
    body += "<h3>" + html_escape(run.name) + "</h3>\n<p>" + html_escape(run.logdir) + "</p>\n" + run.video_html +
            "<div class=\"tables\">\n";
    body += run.has_config ? table_html(run.config, "config.toml") : "<p class=\"note\">no config.toml</p>\n";
    body += run.summary.empty() ? "<p class=\"note\">no summary.json (the run has not ended)</p>\n"
                                : table_html(run.summary, "summary.json");
    body += "</div>\n";
  }
  if (!page.bench_path.empty()) body += "<h2>Benchmark</h2>\n" + table_html(page.bench, page.bench_path);

  const nlohmann::json data = {{"charts", std::move(charts)}};
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
                     html_escape(page.title) + "</title>\n";
  html += "<style>\n" + dygraphs.css + "\n</style>\n<style>" + kStyle + "</style>\n";
  html += "<script>\n" + dygraphs.js + "\n</script>\n</head>\n<body>\n" + body;
  html += "<script type=\"application/json\" id=\"report-data\">" +
          script_safe_json(data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)) + "</script>\n";
  html += std::string("<script>") + kDrawCharts + "</script>\n</body>\n</html>\n";
  return html;
}

}  // namespace seedrl::report
