// The progress line: the ETA from a rate smoothed over about a minute (one
// slow window moves it by its share, not by hours) that forgets the replay's
// warm-up once the learner starts, and return(N of 100)
// while the episode window fills.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "seedrl/io/progress_line.h"

using namespace seedrl;

namespace {

// The lines written to a file (not a terminal: one plain line per update).
std::vector<std::string> lines_of(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::vector<std::string> out;
  char buf[1024];
  while (std::fgets(buf, sizeof buf, f)) out.emplace_back(buf);
  return out;
}

// "ETA 1:02:03" -> 3723 s.
double eta_seconds(const std::string& line) {
  const auto at = line.find("ETA ");
  REQUIRE(at != std::string::npos);
  int a = 0, b = 0, c = 0;
  const int n = std::sscanf(line.c_str() + at + 4, "%d:%d:%d", &a, &b, &c);
  return n == 3 ? a * 3600.0 + b * 60 + c : a * 60.0 + b;
}

// A progress line writing to a temporary file (closed on every way out), and
// the numbers given to it: no episode has ended yet.
struct LineToFile {
  std::FILE* f = open();
  ProgressLine line{f};
  Progress p;
  explicit LineToFile(std::int64_t max_frames) {
    p.max_frames = max_frames;
    p.return_mean = NAN;
  }
  ~LineToFile() { std::fclose(f); }
  LineToFile(const LineToFile&) = delete;
  LineToFile& operator=(const LineToFile&) = delete;
  std::vector<std::string> lines() { return lines_of(f); }

 private:
  static std::FILE* open() {
    std::FILE* f = std::tmpfile();
    REQUIRE(f);
    return f;
  }
};

}  // namespace

TEST_CASE("the ETA follows a smoothed rate, not the last window", "[io][progress]") {
  LineToFile out(100'000'000);
  ProgressLine& line = out.line;
  Progress& p = out.p;
  REQUIRE_FALSE(line.interactive());
  // 1,000 frames/s for a minute, then one 5 s window at 100 frames/s.
  for (int i = 1; i <= 12; ++i) {
    p.elapsed_s = 5.0 * i;
    p.frames = 5000 * i;
    p.fps = 1000;
    line.update(p);
  }
  p.elapsed_s += 5;
  p.frames += 500;
  p.fps = 100;
  line.update(p);
  const auto lines = out.lines();
  REQUIRE(lines.size() == 13);
  CHECK(eta_seconds(lines[11]) == Approx((1e8 - 60000) / 1000.0).margin(1));
  // The closed form of one exponential-smoothing step with dt = 5 s.
  const double a = 1 - std::exp(-5.0 / ProgressLine::kEtaSmoothingS);
  const double rate = 1000 + a * (100 - 1000);
  CHECK(eta_seconds(lines[12]) == Approx((1e8 - 60500) / rate).margin(1));
  // The last window alone would have said ten times as long.
  CHECK(eta_seconds(lines[12]) < 0.15 * (1e8 - 60500) / 100);
}

TEST_CASE("the ETA forgets a replay's warm-up once the learner starts", "[io][progress]") {
  LineToFile out(1'000'000);
  ProgressLine& line = out.line;
  Progress& p = out.p;
  // The actors alone fill the replay at 10,000 frames/s for a minute...
  for (int i = 1; i <= 12; ++i) {
    p.elapsed_s = 5.0 * i;
    p.frames = 50'000 * i;
    line.update(p);
  }
  // ...then the learner paces them at 200 frames/s.
  for (int i = 1; i <= 3; ++i) {
    p.elapsed_s += 5;
    p.frames += 1000;
    p.learner_steps += 1000;
    line.update(p);
  }
  const auto lines = out.lines();
  REQUIRE(lines.size() == 15);
  CHECK(eta_seconds(lines[11]) == Approx((1e6 - 600'000) / 10'000.0).margin(1));
  // The window the learner started in mixes both rates: no ETA for it.
  CHECK(lines[12].find("ETA --:--") != std::string::npos);
  // From the next window on, the training rate alone.
  CHECK(eta_seconds(lines[13]) == Approx((1e6 - 602'000) / 200.0).margin(1));
  CHECK(eta_seconds(lines[14]) == Approx((1e6 - 603'000) / 200.0).margin(1));
}

TEST_CASE("return(N of 100) while the window fills, return(100) once full", "[io][progress]") {
  LineToFile out(1000);
  ProgressLine& line = out.line;
  Progress& p = out.p;
  p.elapsed_s = 1;  // no episode yet: "-"
  line.update(p);
  p.return_mean = -20.5;
  p.return_count = 37;
  line.update(p);
  p.return_count = 100;
  line.update(p);
  const auto lines = out.lines();
  REQUIRE(lines.size() == 3);
  CHECK_THAT(lines[0], Catch::Contains("return(100) -"));
  CHECK_THAT(lines[1], Catch::Contains("return(37 of 100) -20.5"));
  CHECK_THAT(lines[2], Catch::Contains("return(100) -20.5"));
}

TEST_CASE("an env that says how episodes end shows its first ending's share after the return", "[io][progress]") {
  LineToFile out(1000);
  ProgressLine& line = out.line;
  Progress& p = out.p;
  p.elapsed_s = 1;
  line.update(p);  // no outcome named: nothing shown
  p.outcome = "goal";
  p.outcome_share = std::numeric_limits<double>::quiet_NaN();
  line.update(p);
  p.return_mean = 1.3;
  p.return_count = 100;
  p.outcome_share = 0.4;
  line.update(p);
  const auto lines = out.lines();
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].find("goal") == std::string::npos);
  CHECK_THAT(lines[1], Catch::Contains("return(100) - | goal - | learner steps"));
  CHECK_THAT(lines[2], Catch::Contains("return(100) 1.3 | goal 0.40 | learner steps"));
}

TEST_CASE("the ETA is zero once the frames pass max_frames", "[io][progress]") {
  LineToFile out(10'000);
  ProgressLine& line = out.line;
  Progress& p = out.p;
  for (int i = 1; i <= 3; ++i) {
    p.elapsed_s = 5.0 * i;
    p.frames = 4'000 * i;  // the last update is 2,000 frames past the end
    line.update(p);
  }
  const auto lines = out.lines();
  REQUIRE(lines.size() == 3);
  CHECK(eta_seconds(lines[1]) == Approx(2'000 / 800.0).margin(1));
  CHECK(lines[2].find("ETA 0:00") != std::string::npos);
}
