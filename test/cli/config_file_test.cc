// --config files: TOML read by toml++. A malformed file is refused by its
// file, line and column; a value of the wrong type for its flag by file, line
// and key, in one line; every config shipped under configs/ is read as before.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "one_line_error.h"
#include "run_binary.h"
#include "seedrl/cli/algorithm_flags.h"
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
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// The error apply_config_file gives for a file holding `text`, after the
// file's path and ':' ("" if none); checked to be one line.
std::string error_in(CLI::App& command, const std::string& text) {
  const std::string path = write(text);
  try {
    seedrl::apply_config_file(command, path);
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    CHECK(what.find('\n') == std::string::npos);
    CHECK(what.size() < 400);
    const auto at = what.find(path + ":");
    if (at == std::string::npos) return what;
    return what.substr(at + path.size() + 1);
  }
  return "";
}

std::string error_for(const std::string& text) {
  Flags f;
  return error_in(f.app, text);
}

// The train command, parsed from no flags (or `args`), for its real flags.
struct Train {
  CLI::App app;
  CLI::App* cmd;
  seedrl::CommandRunner runner;  // owns the variables the flags write into
  explicit Train(const std::string& args = "") {
    runner = seedrl::add_train_command(app);
    app.parse("train " + args);
    cmd = app.get_subcommand("train");
  }
  template <typename T>
  T get(const std::string& flag) {
    return cmd->get_option(flag)->as<T>();
  }
};

std::string train_error(const std::string& text) {
  Train t;
  return error_in(*t.cmd, text);
}

}  // namespace

TEST_CASE("a malformed config line is refused by its line and column", "[cli]") {
  CHECK_THAT(error_for("hidden = [32, 16\n"), Catch::StartsWith("1:") && Catch::Contains("array"));
  CHECK_THAT(error_for("actors = 4\nmax-frames = [1\n"), Catch::StartsWith("2:"));
  CHECK_THAT(error_for("hidden = [32, 16\nactors = 4\n"), Catch::StartsWith("2:"));
  CHECK_THAT(error_for("max-frames = = 3\n"), Catch::StartsWith("1:14:"));
  CHECK_THAT(error_for("logdir = \"runs/a\n"), Catch::StartsWith("1:"));
  CHECK_THAT(error_for("logdir = 'runs/a\n"), Catch::StartsWith("1:"));
  CHECK_THAT(error_for("actors =\n"), Catch::StartsWith("1:"));
  CHECK_THAT(error_for("actors = # later\n"), Catch::StartsWith("1:"));
  CHECK_THAT(error_for("hidden = 32, 16]\n"), Catch::StartsWith("1:"));
  CHECK_THAT(error_for("hidden = [32, 16] 8\n"), Catch::StartsWith("1:"));
  CHECK_THAT(error_for("[section\n"), Catch::StartsWith("1:"));
  CHECK_THAT(error_for("# a comment\n\n32, 16]\n"), Catch::StartsWith("3:"));
  CHECK_THAT(error_for("x\n"), Catch::StartsWith("1:"));
  CHECK_THAT(error_for("actors = 1\nactors = 2\n"), Catch::StartsWith("2:") && Catch::Contains("actors"));
  // CLI11's own extensions of TOML are not TOML.
  CHECK_THAT(error_for("; comment\n"), Catch::StartsWith("1:1:"));
  CHECK_THAT(error_for("resume\n"), Catch::StartsWith("1:"));
  // A '#' inside quotes is text, not a comment; a nested list is not a width.
  CHECK(error_for("logdir = \"runs/#1\"\n").empty());
  CHECK(error_for("hidden = [32, [16]]\n") == "1: --hidden: expected a flat list, got a list inside the list");
}

TEST_CASE("well-formed config files read as before", "[cli]") {
  const std::string path = write(
      "# comment\n"
      "hidden = [32,\n"
      "  16  # a comment inside a list\n"
      "]\n"
      "max-frames = 2000  # trailing comment\n"
      "actors = 3\n"
      "logdir = 'runs/[x] = y'\n"
      "env = \"cartpole\"\n"
      "resume = true\n");
  Flags f;
  seedrl::apply_config_file(f.app, path);
  CHECK(f.hidden == std::vector<int>{32, 16});
  CHECK(f.max_frames == 2000);
  CHECK(f.actors == 3);
  CHECK(f.logdir == "runs/[x] = y");
  CHECK(f.env == "cartpole");
  CHECK(f.resume);

  Flags g;
  seedrl::apply_config_file(g.app, write("hidden = [\n  64,\n  64,\n]  # two layers\n"));
  CHECK(g.hidden == std::vector<int>{64, 64});
  Flags one;
  seedrl::apply_config_file(one.app, write("hidden = 48\nmax_frames = 7\n"));  // a width alone; '_' for '-'
  CHECK(one.hidden == std::vector<int>{48});
  CHECK(one.max_frames == 7);
  Flags empty;
  seedrl::apply_config_file(empty.app, write(""));
  CHECK(empty.hidden.empty());
}

TEST_CASE("the command line wins over the config file", "[cli]") {
  Train t("--actors 5 --no-normalize-obs");
  seedrl::apply_config_file(*t.cmd, write("actors = 3\nbatch-size = 7\nnormalize-obs = true\nlearning-rate = 2\n"));
  CHECK(t.get<int>("--actors") == 5);
  CHECK(t.get<int>("--batch-size") == 7);
  CHECK_FALSE(t.get<bool>("--normalize-obs"));
  CHECK(t.get<double>("--learning-rate") == 2.0);  // an integer for a float flag
}

TEST_CASE("a renamed flag's old key still sets it, below the command line", "[cli][config]") {
  Train old_key;
  seedrl::apply_config_file(*old_key.cmd, write("learner-cores = \"share\"\n"));
  CHECK(old_key.get<std::string>("--learner-cpus") == "share");
  Train underscores;
  seedrl::apply_config_file(*underscores.cmd, write("learner_cores = \"reserve\"\n"));
  CHECK(underscores.get<std::string>("--learner-cpus") == "reserve");
  Train given("--learner-cpus reserve");
  seedrl::apply_config_file(*given.cmd, write("learner-cores = \"share\"\n"));
  CHECK(given.get<std::string>("--learner-cpus") == "reserve");
  // Its errors name the key as the file wrote it.
  CHECK_THAT(train_error("learner-cores = \"pin\"\n"),
             Catch::StartsWith("1: --learner-cores: ") && !Catch::Contains("--learner-cpus"));
  CHECK(train_error("learner-cores = 3\n") == "1: --learner-cores: expected a string, got an integer 3");
  // Old and new name in one file: the same flag set twice.
  CHECK(train_error("learner-cpus = \"share\"\nlearner-cores = \"reserve\"\n") ==
        "2: --learner-cores: line 1 already set --learner-cpus");
}

TEST_CASE("a switch set by both its names in one file is refused, not read first-wins", "[cli][config]") {
  CHECK(train_error("learn-temperature = true\nfixed-temperature = true\n") ==
        "2: --fixed-temperature: line 1 already set --learn-temperature");
  CHECK(train_error("no-lstm = true\nlstm = true\n") == "2: --lstm: line 1 already set --no-lstm");
  CHECK(train_error("fixed-temperature = true\n").empty());
}

TEST_CASE("--target-entropy takes \"auto\", its default, from a file and writes it back", "[cli][config]") {
  Train from_file;
  seedrl::apply_config_file(*from_file.cmd, write("target-entropy = \"auto\"\n"));
  CHECK(std::isnan(from_file.get<double>("--target-entropy")));
  Train number;
  seedrl::apply_config_file(*number.cmd, write("target-entropy = -2.5\n"));
  CHECK(number.get<double>("--target-entropy") == -2.5);
  CHECK(train_error("target-entropy = \"high\"\n") == "1: --target-entropy: expected a number, got a string \"high\"");
  // Only a flag whose default is "auto" takes it.
  CHECK(train_error("tau = \"auto\"\n") == "1: --tau: expected a number, got a string \"auto\"");
  // config.toml keeps the word: a NaN would not read back.
  Train given("--target-entropy auto");
  const std::string toml = seedrl::given_settings_toml(*given.cmd);
  INFO(toml);
  CHECK_THAT(toml, Catch::Contains("target-entropy = 'auto'") || Catch::Contains("target-entropy = \"auto\""));
  Train again;
  seedrl::apply_config_file(*again.cmd, write(toml));
  CHECK(std::isnan(again.get<double>("--target-entropy")));
}

TEST_CASE("config.toml keeps a list's values as the run read them, whatever base they were written in",
          "[cli][config]") {
  Train given("--hidden 0x40 010 32");
  const std::string toml = seedrl::given_settings_toml(*given.cmd);
  INFO(toml);
  Train again;
  seedrl::apply_config_file(*again.cmd, write(toml));
  CHECK(again.get<std::vector<std::int64_t>>("--hidden") == given.get<std::vector<std::int64_t>>("--hidden"));
  CHECK(given.get<std::vector<std::int64_t>>("--hidden") == std::vector<std::int64_t>{64, 8, 32});
}

TEST_CASE("a config value of the wrong type is refused by file, line and key", "[cli][config]") {
  CHECK(train_error("actors = 4\nmax-frames = \"abc\"\n") ==
        "2: --max-frames: expected an integer, got a string \"abc\"");
  CHECK(train_error("actors = 4.5\n") == "1: --actors: expected an integer, got a float 4.5");
  CHECK(train_error("actors = 4.0\n") == "1: --actors: expected an integer, got a float 4");
  CHECK(train_error("resume = 1\n") == "1: --resume: expected true or false, got an integer 1");
  CHECK(train_error("difficulty-ramping = \"yes\"\n") ==
        "1: --difficulty-ramping: expected true or false, got a string \"yes\"");
  CHECK(train_error("env = 5\n") == "1: --env: expected a string, got an integer 5");
  CHECK(train_error("learning-rate = \"0.1\"\n") == "1: --learning-rate: expected a number, got a string \"0.1\"");
  CHECK(train_error("learning-rate = nan\n") == "1: --learning-rate: must be a finite number, got nan");
  CHECK(train_error("discount = inf\n") == "1: --discount: must be a finite number, got inf");
  CHECK(train_error("actors = [4]\n") == "1: --actors: expected an integer, got a list");
  CHECK(train_error("hidden = [64, \"x\"]\n") == "1: --hidden: list value 2: expected an integer, got a string \"x\"");
  CHECK(train_error("hidden = [64, 1.5]\n") == "1: --hidden: list value 2: expected an integer, got a float 1.5");
  CHECK(train_error("hidden = []\n") == "1: --hidden: the list is empty");
  CHECK(train_error("logdir = 2024-01-01\n") == "1: --logdir: expected a string, got a date or time");
  CHECK(train_error("[model]\nhidden = [1]\n") ==
        "1: 'model' is a [section] or dotted key; config keys are flag names, outside any section");
  CHECK_THAT(train_error("model.hidden = [1]\n"), Catch::StartsWith("1: 'model' is a [section]"));
}

TEST_CASE("a config integer beyond its flag's range is refused by line and key", "[cli][config]") {
  CHECK_THAT(train_error("max-frames = 99999999999999999999\n"), Catch::StartsWith("1:") && Catch::Contains("64 bits"));
  CHECK_THAT(train_error("actors = 9999999999\n"), Catch::StartsWith("1: --actors: must be in [0, 1048576]"));
  CHECK_THAT(train_error("seed = -1\n"), Catch::StartsWith("1: --seed: must be at least 0"));
  CHECK_THAT(train_error("hidden = [64, 100000]\n"), Catch::StartsWith("1: --hidden: must be in [1, 65536]"));
  CHECK_THAT(train_error("actors = 0\nmax-frames = 0\n"), Catch::StartsWith("2: --max-frames: must be positive"));
}

TEST_CASE("NUL bytes, control characters and non-UTF-8 in a config are refused in one short line", "[cli][config]") {
  CHECK_THAT(train_error(std::string("logdir = \"a\0b\"\n", 15)), Catch::StartsWith("1:"));
  CHECK(train_error("logdir = \"a\\u0000b\"\n") == "1: --logdir: control character \\x00 in \"a\\x00b\"");
  CHECK(train_error("logdir = \"a\\nb\"\n") == "1: --logdir: control character \\x0a in \"a\\x0ab\"");
  CHECK_THAT(train_error("logdir = \"\xff\xfe\"\n"), Catch::StartsWith("1:") && Catch::Contains("utf-8"));
  CHECK_THAT(train_error("actors = 2 # \xc3\x28\n"), Catch::StartsWith("1:") && Catch::Contains("utf-8"));
  CHECK_THAT(train_error("\xef\xbb\xbf"
                         "actors = 2\nenv = 7\n"),
             Catch::StartsWith("2: --env"));                      // a BOM is fine
  CHECK(train_error("logdir = \"runs/caf\xc3\xa9\"\n").empty());  // UTF-8 is fine
}

TEST_CASE("a 1 MiB config line or a 300,000-width list is refused in one line", "[cli][config]") {
  CHECK(train_error("actors = 2\nlogdir = \"" + std::string(1 << 20, 'a') + "\"\n") ==
        "2: the line is 1048587 bytes long; config lines may be at most 65536");
  CHECK_THAT(train_error("# " + std::string(1 << 20, '#') + "\n"), Catch::StartsWith("1: the line is"));
  std::string widths = "hidden = [\n";
  for (int i = 0; i < 300'000; ++i) widths += "64,\n";
  CHECK(train_error(widths + "]\n") == "1: --hidden: a list of 300000 values; at most 1024 are taken");
  // A file far beyond any config is not read whole.
  CHECK_THAT(train_error(std::string(5 << 20, '\n')), Catch::Contains("is larger than 4 MiB"));
}

TEST_CASE("an unknown config key is refused with the closest flag", "[cli][config]") {
  CHECK(train_error("actors = 2\nmax-frame = 10\n") == "2: unknown key 'max-frame' (did you mean 'max-frames'?)");
  CHECK(train_error("lerning_rate = 0.1\n") == "1: unknown key 'lerning_rate' (did you mean 'learning-rate'?)");
  CHECK(train_error("zzzz = 1\n") == "1: unknown key 'zzzz'");
  CHECK(train_error("config = \"x.toml\"\n") == "1: config: a config file may not name another");
}

TEST_CASE("every shipped config is read by train without error", "[cli]") {
  const auto configs = std::filesystem::path(seedrl::test::source_dir()) / "configs";
  int n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(configs)) {
    if (entry.path().extension() != ".toml") continue;
    INFO(entry.path());
    CLI::App app;
    const auto runner = seedrl::add_train_command(app);  // owns the variables the flags write into
    app.parse(std::string("train"));
    CLI::App* train = app.get_subcommand("train");
    CHECK_NOTHROW(seedrl::apply_config_file(*train, entry.path().string()));
    // ... and every flag it sets is one its algorithm reads.
    CHECK_NOTHROW(seedrl::check_algorithm_flags(*train, train->get_option("--algo")->as<std::string>(), {},
                                                entry.path().string()));
    ++n;
  }
  CHECK(n >= 5);
}

TEST_CASE("seedrl train refuses a config with an unclosed array in one line", "[cli]") {
  const std::string dir = temp_dir("cli_config_array");
  std::ofstream(dir + "/run.toml") << "max-frames = 1000\nactors = 2\nbatch-size = 2\nhidden = [32, 16\n";
  check_one_line_error({"train", "--config", dir + "/run.toml", "--logdir", dir}, dir + "/run.toml:4:");
}

TEST_CASE("seedrl train refuses a config value of the wrong type in one line", "[cli][config]") {
  const std::string dir = temp_dir("cli_config_type");
  std::ofstream(dir + "/run.toml") << "max-frames = 1000\nactors = \"many\"\n";
  check_one_line_error({"train", "--config", dir + "/run.toml", "--logdir", dir},
                       dir + "/run.toml:2: --actors: expected an integer, got a string \"many\"");
}

TEST_CASE("train writes the settings it was given to config.toml and --config runs them again", "[cli][config]") {
  const std::string dir = temp_dir("config_toml_a"), again = temp_dir("config_toml_b");
  std::ofstream(dir + "/base.toml") << "learning-rate = 0.002\nhidden = [32, 16]\n";
  const RunResult first = run_seedrl(
      {"train",    "--config", dir + "/base.toml", "--env", "CartPole-v1",          "--max-frames", "600",
       "--actors", "2",        "--batch-size",     "2",     "--separate-value-net", "--activation", "tanh",
       "--logdir", dir,        "--seed",           "4",     "--discount",           "0.99",         "--entropy-cost",
       "2"});
  INFO(first.output);
  REQUIRE(first.status == 0);
  const std::string toml = read_file(dir + "/config.toml");
  // Floats in their shortest form that reads back, still TOML floats.
  CHECK_THAT(toml, Catch::Contains("\ndiscount = 0.99\n") && Catch::Contains("\nentropy-cost = 2.0\n"));
  INFO(toml);
  CHECK_THAT(toml, Catch::Contains("env = 'cartpole'") || Catch::Contains("env = \"cartpole\""));  // our name
  CHECK_THAT(toml, Catch::Contains("learning-rate = 0.002"));                                      // from the file
  CHECK_THAT(toml, Catch::Contains("hidden = [ 32, 16 ]") || Catch::Contains("hidden = [32, 16]"));
  CHECK_THAT(toml, Catch::Contains("separate-value-net = true"));
  CHECK_THAT(toml, Catch::Contains("seed = 4"));
  CHECK_THAT(toml, !Catch::Contains("config =") && !Catch::Contains("reward-scale"));  // env defaults stay defaults
  // Read back: the same run, described by the same start-up lines.
  const RunResult second = run_seedrl({"train", "--config", dir + "/config.toml", "--logdir", again});
  INFO(second.output);
  REQUIRE(second.status == 0);
  const auto line_with = [](const std::string& out, const std::string& what) {
    const auto at = out.find(what);
    return at == std::string::npos ? std::string() : out.substr(at, out.find('\n', at) - at);
  };
  for (const char* what : {"env cartpole", "v-trace:"}) {
    CHECK_FALSE(line_with(first.output, what).empty());
    CHECK(line_with(second.output, what) == line_with(first.output, what));
  }
}
