// The page's own escaping (report/html_report.h, report/text.h): no text
// from a file can end the data element or add markup.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "seedrl/report/html_report.h"
#include "seedrl/report/text.h"

using namespace seedrl::report;

TEST_CASE("the chart data cannot close its script element", "[report]") {
  const nlohmann::json j = {{"name", "</script><script>alert(1)</script><!-- & >"}};
  const std::string safe = script_safe_json(j.dump());
  CHECK(safe.find('<') == std::string::npos);
  CHECK(safe.find('>') == std::string::npos);
  CHECK(safe.find('&') == std::string::npos);
  CHECK(nlohmann::json::parse(safe) == j);  // the same data
}

TEST_CASE("text from files is escaped for HTML", "[report]") {
  CHECK(html_escape("<a href=\"x\" title='y'>&</a>") ==
        "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
  CHECK(one_line("a\nb\rc\td", 100) == "a b c d");
  CHECK(one_line("abcdef", 3) == "abc...");
}

TEST_CASE("a page embeds its charts' points as JSON", "[report]") {
  ReportPage page;
  page.title = "t";
  Chart chart{"<i>ret</i>", "frames", "<b>return</b>", true, {}};
  chart.series.push_back({"run <1>", {{0, 1, 2, 3}, {10, 4, 5, 6}}});
  page.return_charts.push_back(chart);
  page.runs.push_back({"run <1>", "/x/<1>", true, {{"env", "</style>"}}, {}});
  const std::string html = render_html(page, DygraphsAssets{"var dygraphs;", ".dygraph {}"});
  CHECK(html.find("var dygraphs;") != std::string::npos);
  CHECK(html.find("</style>\"") == std::string::npos);
  CHECK(html.find("<td>&lt;/style&gt;</td>") != std::string::npos);
  const std::string open = "id=\"report-data\">";
  const auto from = html.find(open) + open.size();
  const nlohmann::json data = nlohmann::json::parse(html.substr(from, html.find("</script>", from) - from));
  REQUIRE(data["charts"].size() == 1);
  CHECK(data["charts"][0]["series"][0]["name"] == "run &lt;1&gt;");  // dygraphs writes labels as HTML
  CHECK(data["charts"][0]["series"][0]["points"] == nlohmann::json::parse("[[0,1,2,3],[10,4,5,6]]"));
  CHECK(data["charts"][0]["ylabel"] == "&lt;b&gt;return&lt;/b&gt;");  // axis titles are HTML too
}
