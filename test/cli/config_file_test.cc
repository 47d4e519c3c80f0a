// --config files: a malformed line is refused by its file and line number,
// never read as something else (CLI11 read `hidden = [32, 16` as [32, 1]),
// and every config shipped under configs/ is read as before.
#include <catch2/catch.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "run_binary.h"
#include "seedrl/cli/commands.h"
#include "seedrl/cli/config_file.h"

using namespace seedrl::test;

namespace {

struct Flags {
  CLI::App app;
  std::vector<int> hidden;
  long long max_frames = 0;
  int actors = 0;
  std::string logdir, env;
  bool resume = false;
  Flags() {
    app.add_option("--hidden", hidden);
    app.add_option("--max-frames", max_frames);
    app.add_option("--actors", actors);
    app.add_option("--logdir", logdir);
    app.add_option("--env", env);
    app.add_flag("--resume", resume);
    app.parse(std::string());
  }
};

std::string write(const std::string& text) {
  const std::string path = temp_dir("cli_config_file") + "/run.toml";
  std::ofstream(path) << text;
  return path;
}

// The error apply_config_file gives for a file holding `text`, "" if none.
std::string error_for(const std::string& text) {
  const std::string path = write(text);
  Flags f;
  try {
    seedrl::apply_config_file(f.app, path);
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    CHECK_THAT(what, Catch::StartsWith("--config: " + path + " line "));
    return what.substr(what.find(" line ") + 1);
  }
  return "";
}

}  // namespace

TEST_CASE("a config line CLI11 would misread is refused by its number", "[cli]") {
  CHECK(error_for("hidden = [32, 16\n") == "line 1: '[' is never closed");
  CHECK(error_for("actors = 4\nmax-frames = [1\n") == "line 2: '[' is never closed");
  CHECK(error_for("hidden = [32, 16\nactors = 4\n") == "line 1: '[' is not closed before line 2");
  CHECK(error_for("max-frames = = 3\n") == "line 1: '=' twice in 'max-frames = = 3'");
  CHECK(error_for("logdir = \"runs/a\n") == "line 1: unterminated string in 'logdir = \"runs/a'");
  CHECK(error_for("logdir = 'runs/a\n") == "line 1: unterminated string in 'logdir = 'runs/a'");
  CHECK(error_for("logdir = \"runs/#1\"\n") == "line 1: '#' inside quotes would end the value there");
  CHECK(error_for("actors =\n") == "line 1: 'actors' has no value");
  CHECK(error_for("actors = # later\n") == "line 1: 'actors' has no value");
  CHECK(error_for("hidden = 32, 16]\n") == "line 1: ']' without '[' in 'hidden = 32, 16]'");
  CHECK(error_for("hidden = [32, [16]]\n") == "line 1: unexpected '[' in 'hidden = [32, [16]]'");
  CHECK(error_for("hidden = [32, 16] 8\n") == "line 1: text after ']' in 'hidden = [32, 16] 8'");
  CHECK(error_for("hidden = [\n32, 16]\n") == "line 1: put an array's first element on the line of its '['");
  CHECK(error_for("hidden = [32,\n16, # x\n]\n") == "line 2: no comments inside a multi-line array");
  CHECK(error_for("hidden = [32,\n16] # x\n") == "line 2: a multi-line array's ']' must end its line");
  CHECK(error_for("[section\n") == "line 1: malformed section header '[section'");
  CHECK(error_for("# a comment\n\n32, 16]\n") == "line 3: expected KEY = VALUE, got '32, 16]'");
  CHECK(error_for("x\n") == "line 1: expected KEY = VALUE, got 'x'");
}

TEST_CASE("well-formed config files read as before", "[cli]") {
  const std::string path = write(
      "# comment\n"
      "; comment\n"
      "hidden = [32,\n"
      "  16\n"
      "]\n"
      "max-frames = 2000  # trailing comment\n"
      "actors = 3\n"
      "logdir = 'runs/[x] = y'\n"
      "env = \"cartpole\"\n"
      "resume\n");
  Flags f;
  seedrl::apply_config_file(f.app, path);
  CHECK(f.hidden == std::vector<int>{32, 16});
  CHECK(f.max_frames == 2000);
  CHECK(f.actors == 3);
  CHECK(f.logdir == "runs/[x] = y");
  CHECK(f.env == "cartpole");
  CHECK(f.resume);

  Flags g;
  seedrl::apply_config_file(g.app, write("hidden = [64, 64]  # two layers\n"));
  CHECK(g.hidden == std::vector<int>{64, 64});
  Flags empty;
  seedrl::apply_config_file(empty.app, write(""));
  CHECK(empty.hidden.empty());
}

TEST_CASE("every shipped config is read by train without error", "[cli]") {
  const auto configs = std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "configs";
  int n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(configs)) {
    if (entry.path().extension() != ".toml") continue;
    INFO(entry.path());
    CLI::App app;
    seedrl::add_train_command(app);
    app.parse(std::string("train"));
    CHECK_NOTHROW(seedrl::apply_config_file(*app.get_subcommand("train"), entry.path().string()));
    ++n;
  }
  CHECK(n >= 5);
}

TEST_CASE("seedrl train refuses a config with an unclosed array in one line", "[cli]") {
  const std::string dir = temp_dir("cli_config_array");
  std::ofstream(dir + "/run.toml") << "max-frames = 1000\nactors = 2\nbatch-size = 2\nhidden = [32, 16\n";
  RunResult r = run_seedrl({"train", "--config", dir + "/run.toml", "--logdir", dir}, 60);
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains(dir + "/run.toml line 4: '[' is never closed"));
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}
