#include "seedrl/report/html_report.h"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "seedrl/report/text.h"

namespace seedrl::report {

namespace {

// Before anything else in <head>: collects the page's errors for
// #report-state (and so for the browser tests).
constexpr const char* kCatchErrors = R"JS(
window.seedrlErrors = [];
(function () {
  "use strict";
  function note(text) {
    window.seedrlErrors.push(String(text));
    if (window.seedrlPublish) window.seedrlPublish();
  }
  window.addEventListener("error", function (e) { note(e.message); });
  window.addEventListener("unhandledrejection", function (e) { note(e.reason); });
  var original = console.error;
  console.error = function () {
    note(Array.prototype.join.call(arguments, " "));
    return original.apply(console, arguments);
  };
})();
)JS";

// Draws every chart from the data element; a live page then fetches new data
// every few seconds and redraws in place. dygraphs wants one row per x with
// a column per series (null where a series has no point there).
constexpr const char* kDrawCharts = R"JS(
(function () {
  "use strict";
  var state = {ready: false, updates: 0, errors: [], charts: {}};
  var graphs = {};
  var stateElement = document.getElementById("report-state");
  window.seedrlPublish = function () {
    state.errors = window.seedrlErrors;
    stateElement.textContent = JSON.stringify(state);
  };
  function rowsOf(chart) {
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
    return rows;
  }
  // Axis numbers as plain decimals (scientific far from 1), with as many
  // digits as the axis's span needs to tell its ticks apart: never dygraphs'
  // SI prefixes, which turn 0.99995 into "999.95m".
  function plainNumber(v, span) {
    if (typeof v !== "number" || !isFinite(v)) return String(v);
    var a = Math.abs(v);
    if (a === 0 || (span > 0 && a < span * 1e-9)) return "0";
    var digits = span > 0 ? Math.min(15, Math.max(3, Math.ceil(Math.log10(a / span)) + 2)) : 6;
    var r = Number(v.toPrecision(digits));
    return a >= 1e-3 && a < 1e6 ? String(r) : r.toExponential();
  }
  // Counts (frames) with k, M, B: 250k, 1.5M.
  function countNumber(v) {
    var a = Math.abs(v);
    var units = [[1e9, "B"], [1e6, "M"], [1e3, "k"]];
    for (var i = 0; i < units.length; i++)
      if (a >= units[i][0]) return String(Number((v / units[i][0]).toPrecision(4))) + units[i][1];
    return String(Number(v.toPrecision(6)));
  }
  function spanOf(range) { return range ? Math.abs(range[1] - range[0]) : 0; }
  function axisOptions(chart) {
    var xCount = chart.xlabel === "frames";
    return {
      x: {
        axisLabelFormatter: function (v, g, o, graph) {
          return xCount ? countNumber(v) : plainNumber(v, spanOf(graph.xAxisRange()));
        },
        valueFormatter: function (v) { return xCount ? countNumber(v) : plainNumber(v, 0); }
      },
      y: {
        axisLabelWidth: 72,
        axisLabelFormatter: function (v, g, o, graph) { return plainNumber(v, spanOf(graph.yAxisRange())); },
        valueFormatter: function (v) { return plainNumber(v, 0); }
      }
    };
  }
  // Each marker: a dashed vertical line at x, a dot at (x, y), its label as
  // canvas text (never HTML).
  function markerPainter(chart) {
    return function (ctx, area, graph) {
      (chart.markers || []).forEach(function (m, i) {
        var x = graph.toDomXCoord(m[0]), y = graph.toDomYCoord(m[1]);
        if (!(x >= area.x && x <= area.x + area.w)) return;
        ctx.save();
        ctx.strokeStyle = "#c0392b";
        ctx.fillStyle = "#c0392b";
        ctx.setLineDash([4, 4]);
        ctx.beginPath();
        ctx.moveTo(x, area.y);
        ctx.lineTo(x, area.y + area.h);
        ctx.stroke();
        ctx.setLineDash([]);
        ctx.beginPath();
        ctx.arc(x, Math.min(Math.max(y, area.y), area.y + area.h), 3, 0, 2 * Math.PI);
        ctx.fill();
        ctx.font = "11px sans-serif";
        ctx.textAlign = x > area.x + area.w / 2 ? "right" : "left";
        ctx.fillText(m[2], x + (ctx.textAlign === "right" ? -4 : 4), area.y + 12 + 13 * i);
        ctx.restore();
      });
    };
  }
  // A chart's element holds its plot and, below it, its legend: the legend
  // never covers the data.
  function elementOf(chart) {
    var element = document.getElementById(chart.id);
    if (!element) {  // a metric that got its first value after the page was drawn
      element = document.createElement("div");
      element.id = chart.id;
      element.className = "small";
      document.getElementById("metric-grid").appendChild(element);
    }
    if (!element.querySelector(".plot")) {
      element.textContent = "";
      var plot = document.createElement("div");
      plot.className = "plot";
      var legend = document.createElement("div");
      legend.className = "legend";
      element.appendChild(plot);
      element.appendChild(legend);
    }
    return element;
  }
  // The tick labels and axis titles as drawn, for the browser tests.
  function textsOf(element, selector) {
    return Array.prototype.map.call(element.querySelectorAll(selector), function (e) { return e.textContent; });
  }
  // The box the text itself covers, transforms (the rotated y title) included.
  function textBox(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    return range.getBoundingClientRect();
  }
  // Whether the y-axis title touches any tick label.
  function titleOverlapsTicks(plot) {
    var title = plot.querySelector(".dygraph-ylabel");
    if (!title) return false;
    var t = textBox(title);
    return Array.prototype.some.call(plot.querySelectorAll(".dygraph-axis-label-y"), function (e) {
      var b = textBox(e);
      return b.left < t.right && t.left < b.right && b.top < t.bottom && t.top < b.bottom;
    });
  }
  function draw(chart) {
    var element = elementOf(chart);
    var plot = element.querySelector(".plot");
    var graph = graphs[chart.id];
    var first_rows = state.charts[chart.id] ? state.charts[chart.id].first_rows : undefined;
    state.charts[chart.id] = {series: chart.series.map(function (s) { return s.points.length; }),
                              rows: 0, first_rows: first_rows, bars: false, band: 0};
    if (!chart.series.length) {
      if (!graph) {
        plot.textContent = "no values yet";
        element.classList.add("empty");
      }
      return;
    }
    var rows = rowsOf(chart);
    // Names arrive HTML-escaped: dygraphs writes labels into the legend as HTML.
    var labels = [chart.xlabel].concat(chart.series.map(function (s) { return s.name; }));
    if (graph) {
      graph.updateOptions({file: rows, labels: labels, underlayCallback: markerPainter(chart)});
    } else {
      plot.textContent = "";
      element.classList.remove("empty");
      graphs[chart.id] = new Dygraph(plot, rows, {
        labels: labels,
        title: chart.title,
        xlabel: chart.xlabel,
        ylabel: chart.ylabel,
        yLabelWidth: 20,
        axisLabelFontSize: 12,
        axes: axisOptions(chart),
        underlayCallback: markerPainter(chart),
        customBars: chart.bars,
        connectSeparatedPoints: true,
        legend: "always",
        labelsDiv: element.querySelector(".legend"),
        labelsSeparateLines: true,
        animatedZooms: false
      });
    }
    // As the chart holds it: bars on, and the points whose band has a width.
    graph = graphs[chart.id];
    var drawn = state.charts[chart.id];
    drawn.rows = graph.numRows();
    drawn.bars = graph.getOption("customBars") === true;
    for (var r = 0; r < drawn.rows; r++) {
      for (var c = 1; c < graph.numColumns(); c++) {
        var v = graph.getValue(r, c);
        if (drawn.bars && Array.isArray(v) && v[0] !== v[2]) drawn.band++;
      }
    }
    if (first_rows === undefined) drawn.first_rows = drawn.rows;
    drawn.xticks = textsOf(plot, ".dygraph-axis-label-x");
    drawn.yticks = textsOf(plot, ".dygraph-axis-label-y");
    drawn.xlabel = textsOf(plot, ".dygraph-xlabel").join("");
    drawn.ylabel = textsOf(plot, ".dygraph-ylabel").join("");
    drawn.legend_in_plot = plot.querySelector(".dygraph-legend") !== null;
    drawn.title_overlaps_ticks = titleOverlapsTicks(plot);
    var xr = graph.xAxisRange();
    drawn.markers = (chart.markers || []).filter(function (m) { return m[0] >= xr[0] && m[0] <= xr[1]; }).length;
    drawn.legend = element.querySelector(".legend").textContent;
  }
  function apply(data) {
    data.charts.forEach(draw);
    if (typeof data.runs_html === "string") document.getElementById("report-runs").innerHTML = data.runs_html;
  }
  apply(JSON.parse(document.getElementById("report-data").textContent));
  state.ready = true;
  window.seedrlPublish();

  var poll_s = Number(document.body.getAttribute("data-live"));
  if (!(poll_s > 0)) return;
  var status = document.getElementById("live-status");
  function poll() {
    fetch("data" + location.search, {cache: "no-store"}).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json();
    }).then(function (data) {
      apply(data);
      state.updates++;
      status.textContent = "live: updated " + new Date().toLocaleTimeString() + " (every " + poll_s + " s)";
      window.seedrlPublish();
    }, function (e) {
      // The run ended or the network failed: the page keeps its last data.
      status.textContent = "live: no update since " + new Date().toLocaleTimeString() + " (" + e.message + ")";
    }).then(function () { setTimeout(poll, poll_s * 1000); });
  }
  setTimeout(poll, poll_s * 1000);
})();
)JS";

constexpr const char* kStyle = R"CSS(
body { font-family: sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.5em; } h3 { font-size: 1em; }
.chart { width: 100%; max-width: 1000px; margin-bottom: 2.5em; }
.chart .plot { height: 360px; }
img.video { max-width: 100%; image-rendering: pixelated; border: 1px solid #ccc; }
.grid { display: flex; flex-wrap: wrap; gap: 1em 2em; }
.small { width: 460px; margin-bottom: 2.5em; }
.small .plot { height: 240px; }
.empty { color: #888; }
.empty .plot { height: auto; }
.legend { font-size: 0.8em; margin-top: 0.3em; }
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
      if (chart.bars)
        points.push_back({number(p.x), number(p.low), number(p.y), number(p.high)});
      else
        points.push_back({number(p.x), number(p.y)});
    }
    series.push_back({{"name", html_escape(s.name)}, {"points", std::move(points)}});
  }
  nlohmann::json markers = nlohmann::json::array();
  for (const ChartMarker& m : chart.markers)
    if (std::isfinite(m.x) && std::isfinite(m.y)) markers.push_back({m.x, m.y, m.label});  // drawn as text, not HTML
  return {{"id", id},
          {"markers", std::move(markers)},
          {"title", html_escape(chart.title)},
          {"xlabel", html_escape(chart.xlabel)},
          {"ylabel", html_escape(chart.ylabel)},
          {"bars", chart.bars},
          {"series", std::move(series)}};
}

std::string runs_html(const ReportPage& page) {
  std::string out;
  for (const RunTables& run : page.runs) {
    out += "<h3>" + html_escape(run.name) + "</h3>\n<p>" + html_escape(run.logdir) + "</p>\n<div class=\"tables\">\n";
    out += run.has_config ? table_html(run.config, "config.toml") : "<p class=\"note\">no config.toml</p>\n";
    out += run.summary.empty() ? "<p class=\"note\">no summary.json (the run has not ended)</p>\n"
                               : table_html(run.summary, "summary.json");
    out += "</div>\n";
  }
  return out;
}

std::string chart_id(std::size_t index) { return fmt::format("chart{}", index); }

}  // namespace

std::string script_safe_json(std::string json) {
  std::string out;
  out.reserve(json.size());
  for (const char c : json) {
    if (c == '<')
      out += "\\u003c";
    else if (c == '>')
      out += "\\u003e";
    else if (c == '&')
      out += "\\u0026";
    else
      out += c;
  }
  return out;
}

nlohmann::json page_data(const ReportPage& page, bool with_tables) {
  nlohmann::json charts = nlohmann::json::array();
  for (const Chart& c : page.return_charts) charts.push_back(chart_json(c, chart_id(charts.size())));
  for (const Chart& c : page.metric_charts) charts.push_back(chart_json(c, chart_id(charts.size())));
  nlohmann::json data = {{"charts", std::move(charts)}};
  if (with_tables) data["runs_html"] = runs_html(page);
  return data;
}

std::string render_html(const ReportPage& page, const DygraphsAssets& dygraphs, const RenderOptions& options) {
  const bool live = options.live_poll_s > 0;
  std::string body;
  body += "<h1>" + html_escape(page.title) + "</h1>\n";
  if (live) body += "<p class=\"note\" id=\"live-status\">live: waiting for the first update</p>\n";
  body += "<h2>Episode return</h2>\n";
  std::size_t next_id = 0;
  for (std::size_t i = 0; i < page.return_charts.size(); ++i)
    body += "<div class=\"chart\" id=\"" + chart_id(next_id++) + "\"></div>\n";
  for (const std::string& note : page.notes) body += "<p class=\"note\">" + html_escape(note) + "</p>\n";
  // Always there: a live page adds the charts of metrics that get values later.
  body += "<h2>Metrics</h2>\n<div class=\"grid\" id=\"metric-grid\">\n";
  for (std::size_t i = 0; i < page.metric_charts.size(); ++i)
    body += "<div class=\"small\" id=\"" + chart_id(next_id++) + "\"></div>\n";
  body += "</div>\n";
  // Videos stay out of the runs' tables, which a live page replaces every
  // poll: a page load sends each video once.
  std::string videos;
  for (const RunTables& run : page.runs)
    if (!run.video_html.empty()) videos += "<h3>" + html_escape(run.name) + "</h3>\n" + run.video_html;
  if (!videos.empty()) body += "<h2>The agent playing</h2>\n" + videos;
  body += "<h2>Runs</h2>\n<div id=\"report-runs\">\n" + runs_html(page) + "</div>\n";
  if (!page.bench_path.empty()) body += "<h2>Benchmark</h2>\n" + table_html(page.bench, page.bench_path);

  const nlohmann::json data = page_data(page, false);
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
                     html_escape(page.title) + "</title>\n";
  html += std::string("<script>") + kCatchErrors + "</script>\n";
  html += "<style>\n" + dygraphs.css + "\n</style>\n<style>" + kStyle + "</style>\n";
  html += "<script>\n" + dygraphs.js + "\n</script>\n</head>\n";
  html += live ? fmt::format("<body data-live=\"{}\">\n", options.live_poll_s) : std::string("<body>\n");
  html += body;
  html += "<script type=\"application/json\" id=\"report-data\">" +
          script_safe_json(data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)) + "</script>\n";
  html += "<div id=\"report-state\" hidden>{\"ready\":false}</div>\n";
  html += std::string("<script>") + kDrawCharts + "</script>\n</body>\n</html>\n";
  return html;
}

}  // namespace seedrl::report
