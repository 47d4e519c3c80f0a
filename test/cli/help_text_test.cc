// `--help` shows each flag's effective default: no default outside the
// flag's own range ("in [1 - 64]=0"), "auto" where the env decides, and a
// switch's default as on/off rather than CLI11's "{false}" (the value its
// --no- form sets, which reads as the default).
#include <catch2/catch.hpp>

#include <regex>
#include <sstream>

#include "run_binary.h"

using namespace seedrl::test;

TEST_CASE("every command's --help shows defaults inside their ranges and switches as on/off", "[cli][help]") {
  for (const char* command : {"train", "bench", "play", "actor", "eval"}) {
    const RunResult r = run_seedrl({command, "--help"});
    INFO(command << "\n" << r.output);
    REQUIRE(r.status == 0);
    CHECK_THAT(r.output, !Catch::Contains("{false}") && !Catch::Contains("{true}"));
    // "INT:INT in [1 - 64]=4": the default within [1, 64].
    const std::regex ranged(R"(in \[(-?[0-9.e+-]+) - (-?[0-9.e+-]+)\]=(-?[0-9.e+-]+))");
    std::istringstream lines(r.output);
    for (std::string line; std::getline(lines, line);) {
      std::smatch m;
      if (!std::regex_search(line, m, ranged)) continue;
      INFO(line);
      CHECK(std::stod(m[1]) <= std::stod(m[3]));
      CHECK(std::stod(m[3]) <= std::stod(m[2]));
    }
  }
  const RunResult train = run_seedrl({"train", "--help"});
  CHECK_THAT(train.output, Catch::Contains("--lstm,--no-lstm (default: off)"));
  CHECK_THAT(train.output, Catch::Contains("--checkpoint-replay,--no-checkpoint-replay (default: on)"));
  CHECK_THAT(train.output, Catch::Contains("--sticky-action-prob FLOAT:FLOAT in [0 - 1]=auto"));
  CHECK_THAT(train.output, Catch::Contains("--frame-stack INT:INT in [1 - 64]=auto"));
  CHECK_THAT(train.output, Catch::Contains("--envs-per-actor INT:INT in [1 - 65536]=auto"));
  // Each choice once, apart: not CLI11's "{scoring,checkpoints,scoring}".
  CHECK_THAT(train.output,
             Catch::Contains("--football-rewards TEXT:{scoring | scoring,checkpoints}=scoring,checkpoints"));
  // "auto" is a value --target-entropy takes (test/cli/algorithm_flags_test.cc).
  CHECK_THAT(train.output, Catch::Contains("--target-entropy FLOAT=auto"));
  CHECK_THAT(train.output, Catch::Contains("Learning algorithm: vtrace | r2d2 | sac"));
}

TEST_CASE("train --hidden takes its widths as separate values or as one comma list", "[cli]") {
  for (const std::vector<std::string>& widths : {std::vector<std::string>{"32,16"}, {"32", "16"}}) {
    const std::string dir = temp_dir("hidden_forms");
    std::vector<std::string> args = {"train", "--env",    "cartpole", "--max-frames", "500", "--actors",
                                     "1",     "--logdir", dir,        "--hidden"};
    args.insert(args.end(), widths.begin(), widths.end());
    const RunResult r = run_seedrl(args);
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK_THAT(read_file(dir + "/config.toml"), Catch::Contains("hidden = [ 32, 16 ]"));
  }
}
