// metrics.csv holds the rows of metrics.jsonl, and a resumed run continues it.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "seedrl/io/metrics_writer.h"

namespace {

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream s(line);
  for (std::string f; std::getline(s, f, ',');) out.push_back(f);
  if (!line.empty() && line.back() == ',') out.push_back("");
  return out;
}

}  // namespace

TEST_CASE("metrics.csv has metrics.jsonl's rows, frames first, and a resumed run continues it", "[io][metrics]") {
  const auto dir = std::filesystem::temp_directory_path() / "seedrl_metrics_csv";
  std::filesystem::remove_all(dir);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  {
    seedrl::MetricsWriter w(dir.string());
    w.write({{"frames", 1000}, {"fps", 512.25}, {"episode_return_mean", nan}}, 1.0);
    w.write({{"frames", 2000}, {"fps", 1e-7}, {"episode_return_mean", 21.5}, {"late_key", 3}}, 2.0);
    w.close();
  }
  {
    seedrl::MetricsWriter w(dir.string());  // --resume
    w.write({{"frames", 3000}, {"episode_return_mean", -7}}, 3.0);
    w.close();
  }
  const auto csv = lines_of((dir / "metrics.csv").string());
  const auto jsonl = lines_of((dir / "metrics.jsonl").string());
  REQUIRE(csv.size() == 4);  // one header
  REQUIRE(jsonl.size() == 3);
  CHECK(csv[0] == "frames,episode_return_mean,fps");
  for (std::size_t r = 0; r < jsonl.size(); ++r) {
    INFO("row " << r << ": " << csv[r + 1]);
    const auto j = nlohmann::json::parse(jsonl[r]);
    const auto f = fields_of(csv[r + 1]);
    REQUIRE(f.size() == 3);
    const char* names[] = {"frames", "episode_return_mean", "fps"};
    for (int c = 0; c < 3; ++c) {
      if (!j.contains(names[c]) || j[names[c]].is_null()) {
        CHECK(f[c].empty());
      } else {
        CHECK(std::stod(f[c]) == j[names[c]].get<double>());  // the same number, to the last bit
      }
    }
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("a run resumed after a kill mid-line starts its metrics on a line of their own", "[io][metrics]") {
  const auto dir = std::filesystem::temp_directory_path() / "seedrl_metrics_torn";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string jsonl = (dir / "metrics.jsonl").string();
  std::ofstream(jsonl) << "{\"frames\":100}\n{\"frames\":200,\"fp";  // the killed process's torn line
  {
    seedrl::MetricsWriter w(dir.string());
    w.write({{"frames", 150.0}}, 1.0);
  }
  const auto lines = lines_of(jsonl);
  REQUIRE(lines.size() == 3);
  CHECK(lines[1] == "{\"frames\":200,\"fp");
  CHECK(nlohmann::json::parse(lines[2])["frames"] == 150.0);
  // A file that ends its last line gets nothing added.
  {
    seedrl::MetricsWriter w(dir.string());
    w.write({{"frames", 160.0}}, 2.0);
  }
  CHECK(lines_of(jsonl).size() == 4);
}
