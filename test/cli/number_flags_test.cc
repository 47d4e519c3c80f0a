// Numeric flags refuse what their type cannot hold or their range excludes
// with one readable line: NaN and infinities (which pass CLI11's range checks),
// integers CLI11 would clamp, and no DBL_MAX printed in full.
#include <catch2/catch.hpp>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "one_line_error.h"
#include "seedrl/cli/commands.h"
#include "seedrl/cli/validators.h"

using namespace seedrl::test;

namespace {

// Every command's flags, as `seedrl` registers them. The runners own the
// variables the flags write into: keep them as long as the app.
[[nodiscard]] std::vector<seedrl::CommandRunner> add_all_commands(CLI::App& app) {
  return {seedrl::add_train_command(app), seedrl::add_eval_command(app),  seedrl::add_envs_command(app),
          seedrl::add_play_command(app),  seedrl::add_bench_command(app), seedrl::add_actor_command(app)};
}

// Calls `visit(command, flag)` for every option of every command whose type
// name (INT, UINT, FLOAT) starts with `type`.
void for_each_option(const std::string& type,
                     const std::function<void(const std::string&, const std::string&)>& visit) {
  CLI::App app;
  const auto runners = add_all_commands(app);
  for (CLI::App* sub : app.get_subcommands({})) {
    for (const CLI::Option* opt : sub->get_options()) {
      const std::string name = opt->get_type_name();
      if (opt->get_items_expected_max() > 0 && name.substr(0, name.find(':')) == type)
        visit(sub->get_name(), opt->get_name());
    }
  }
}

// The parse error for `command args`, "" if none. A missing required flag
// (actor's --connect) is none: CLI11 checks values first. "--flag=-inf", not
// "--flag -inf": CLI11 takes "-inf" for short flags.
std::string refusal(const std::string& command, const std::string& args) {
  CLI::App app;
  const auto runners = add_all_commands(app);
  // Parse only: a command line that passes must not run the command in this
  // process (a bench here started CUDA work and crashed the CUDA build's test).
  for (CLI::App* sub : app.get_subcommands({})) sub->callback(nullptr);
  try {
    app.parse(command + " " + args);
  } catch (const CLI::RequiredError&) {
    return "";
  } catch (const CLI::ParseError& e) {
    return e.what();
  }
  return "";
}

RunResult check_error(const std::vector<std::string>& args, const std::string& names) {
  RunResult r = check_one_line_error(args, names);
  CHECK_THAT(r.output, !Catch::Contains("179769313486"));  // no DBL_MAX in full
  return r;
}

}  // namespace

TEST_CASE("every floating-point flag of every command refuses NaN and infinities", "[cli]") {
  int flags = 0;
  for_each_option("FLOAT", [&](const std::string& command, const std::string& flag) {
    ++flags;
    for (const char* value : {"nan", "inf", "-inf", "1e400"}) {
      INFO(command << " " << flag << " " << value);
      const std::string why = refusal(command, flag + "=" + value);
      CHECK_THAT(why, Catch::StartsWith(flag + ": must be"));
    }
  });
  CHECK(flags >= 30);  // train's, bench's, play's and actor's
}

TEST_CASE("every integer flag of every command refuses what its type cannot hold", "[cli]") {
  int flags = 0;
  for (const char* type : {"INT", "UINT"}) {
    for_each_option(type, [&](const std::string& command, const std::string& flag) {
      ++flags;
      for (const char* value : {"99999999999999999999", "-99999999999999999999"}) {
        INFO(command << " " << flag << " " << value);
        CHECK_THAT(refusal(command, flag + "=" + value), Catch::StartsWith(flag + ": must be"));
      }
    });
  }
  CHECK(flags >= 40);
  // strtoull would take -1 as 2^64 - 1.
  CHECK(refusal("train", "--seed -1") == "--seed: must be at least 0, got -1");
  CHECK(refusal("train", "--seed 18446744073709551615").empty());
}

TEST_CASE("check_number_options covers a numeric flag added without a check", "[cli]") {
  auto parse = [](const std::string& args) -> std::string {
    CLI::App app;
    double x = 0;
    std::int64_t n = 0;
    std::vector<double> v;
    std::string s;
    bool b = false;
    app.add_option("--x", x);
    app.add_option("--n", n);
    app.add_option("--v", v);
    app.add_option("--s", s);
    app.add_flag("--b", b);
    seedrl::check_number_options(app);
    try {
      app.parse(args);
    } catch (const CLI::ParseError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(parse("--x nan") == "--x: must be a finite number, got nan");
  CHECK(parse("--x=-inf") == "--x: must be a finite number, got -inf");
  CHECK(parse("--v 1 nan") == "--v: must be a finite number, got nan");
  CHECK(parse("--n 99999999999999999999") == "--n: must be at most 9223372036854775807, got 99999999999999999999");
  CHECK(parse("--x 1e30 --n -5 --v 1 2 --s nan --b").empty());
  // A float flag's value must fit a 32-bit float: the learner computes in float32.
  CHECK(parse("--x 1e300") == "--x: must be at most 3.4028235e+38 (a 32-bit float), got 1e300");
  CHECK(parse("--x=-1e39") == "--x: must be at least -3.4028235e+38 (a 32-bit float), got -1e39");
  CHECK(parse("--x 1e-50") ==
        "--x: underflows a 32-bit float (a nonzero value needs a magnitude of at least 1.1754944e-38), got 1e-50");
  CHECK_THAT(parse("--x=-1e-40"), Catch::StartsWith("--x: underflows a 32-bit float"));
  CHECK_THAT(parse("--v 1 1e39"), Catch::StartsWith("--v: must be at most 3.4028235e+38"));
  // The limits themselves, as a float rounds them, and zero pass.
  CHECK(parse("--x 3.4028235e38").empty());
  CHECK(parse("--x=-3.4028235e38").empty());
  CHECK(parse("--x 1.1754944e-38").empty());
  CHECK(parse("--x 0").empty());
  CHECK(parse("--x=-0.0").empty());
}

TEST_CASE("every floating-point flag of every command refuses what a 32-bit float cannot hold", "[cli]") {
  int flags = 0;
  for_each_option("FLOAT", [&](const std::string& command, const std::string& flag) {
    ++flags;
    // Refused as beyond a float, or by the flag's own range first (a
    // negative value where none is allowed).
    for (const char* value : {"1e39", "-1e39"}) {
      INFO(command << " " << flag << " " << value);
      CHECK_THAT(refusal(command, flag + "=" + value), Catch::StartsWith(flag + ": must"));
    }
    // Refused as an underflow, or by the flag's own range first.
    for (const char* value : {"1e-50", "-1e-50"}) {
      INFO(command << " " << flag << " " << value);
      const std::string why = refusal(command, flag + "=" + value);
      CHECK_THAT(why, Catch::StartsWith(flag + ": underflows") || Catch::StartsWith(flag + ": must"));
    }
  });
  CHECK(flags >= 30);
  CHECK(refusal("train", "--init-temperature 1e39") ==
        "--init-temperature: must be at most 3.4028235e+38 (a 32-bit float), got 1e39");
  CHECK(refusal("train", "--reward-scale 1e39") ==
        "--reward-scale: must be at most 3.4028235e+38 (a 32-bit float), got 1e39");
  CHECK(refusal("train", "--target-entropy 1e39") ==
        "--target-entropy: must be at most 3.4028235e+38 (a 32-bit float), got 1e39");
  CHECK(refusal("train", "--target-entropy=-1e39") ==
        "--target-entropy: must be at least -3.4028235e+38 (a 32-bit float), got -1e39");
  CHECK_THAT(refusal("train", "--tau 1e-50"), Catch::StartsWith("--tau: underflows a 32-bit float"));
  // Ordinary values pass.
  CHECK(refusal("train", "--tau 1e-3 --init-temperature 1e30 --reward-scale 1e-30 --target-entropy -1e30").empty());
}

TEST_CASE("range errors are short and name the flag and the value", "[cli]") {
  CHECK(refusal("train", "--max-frames 0") == "--max-frames: must be positive, got 0");
  CHECK(refusal("train", "--max-frames 99999999999999999999") ==
        "--max-frames: must be at most 9223372036854775807, got 99999999999999999999");
  CHECK(refusal("train", "--max-frames 9223372036854775807").empty());
  CHECK(refusal("train", "--learning-rate 0") == "--learning-rate: must be positive, got 0");
  CHECK(refusal("train", "--learning-rate nan") == "--learning-rate: must be a finite number, got nan");
  CHECK(refusal("train", "--entropy-cost -1") == "--entropy-cost: must not be negative, got -1");
  CHECK(refusal("train", "--discount 1.5") == "--discount: must be in [0, 1], got 1.5");
  CHECK(refusal("train", "--actors 1.5") == "--actors: expected an integer, got '1.5'");
  CHECK(refusal("train", "--actors 2000000") == "--actors: must be in [0, 1048576], got 2000000");
  CHECK(refusal("train", "--hidden 64 0") == "--hidden: must be in [1, 65536], got 0");
  CHECK(refusal("train", "--replay-capacity 0") == "--replay-capacity: must be in [1, 1099511627776], got 0");
  // A range's bound is the double the flag holds: 0.1 is in [0.1, 3600].
  CHECK(refusal("actor", "--timeout-s 0.1").empty());
  CHECK(refusal("actor", "--timeout-s 0.0999").substr(0, 14) == "--timeout-s: m");
  CHECK(refusal("bench", "--seconds 0.01").empty());
  CHECK(refusal("train", "--eval-epsilon 1").empty());
}

TEST_CASE("seedrl refuses a non-finite float flag or config value with one line", "[cli]") {
  // A run that wrongly starts ends soon, and away from runs/latest.
  const std::string dir = temp_dir("cli_nan");
  const std::vector<std::string> quick{"--max-frames", "1000", "--actors", "2", "--batch-size", "2", "--logdir", dir};
  for (const char* flag : {"--learning-rate", "--adam-eps", "--rmsprop-eps", "--discount", "--lambda", "--entropy-cost",
                           "--reward-scale", "--rho-bar", "--max-grad-norm", "--log-interval-s"}) {
    std::vector<std::string> args{"train", flag, "nan"};
    args.insert(args.end(), quick.begin(), quick.end());
    check_error(args, std::string(flag) + ": must be a finite number, got nan");
  }
  check_error({"train", "--discount", "inf", "--logdir", dir}, "--discount");
  check_error({"bench", "--seconds", "nan"}, "--seconds: must be a finite number, got nan");
  check_error({"play", "--sticky-action-prob", "nan"}, "--sticky-action-prob");
  check_error({"actor", "--connect", "127.0.0.1:1", "--timeout-s", "nan"}, "--timeout-s");

  std::ofstream(dir + "/nan.toml") << "learning-rate = nan\nmax-frames = 1000\nactors = 2\nbatch-size = 2\n";
  check_error({"train", "--config", dir + "/nan.toml", "--logdir", dir}, "--learning-rate: must be a finite number");
  check_error({"train", "--config", dir + "/nan.toml", "--logdir", dir}, dir + "/nan.toml");
}

TEST_CASE("seedrl refuses a float flag or config value a 32-bit float cannot hold with one line", "[cli]") {
  const std::string dir = temp_dir("cli_float32");
  const std::vector<std::string> sac{
      "train", "--env",           "pendulum", "--algo",           "sac", "--max-frames",   "3000", "--actors",
      "1",     "--torch-threads", "1",        "--critic-threads", "1",   "--random-steps", "500",  "--min-replay",
      "500",   "--logdir",        dir};
  check_error(with(sac, {"--init-temperature", "1e39"}), "--init-temperature: must be at most 3.4028235e+38");
  check_error(with(sac, {"--reward-scale", "1e39"}), "--reward-scale: must be at most 3.4028235e+38");
  check_error(with(sac, {"--target-entropy", "1e39"}), "--target-entropy: must be at most 3.4028235e+38");
  check_error(with(sac, {"--tau", "1e-50"}), "--tau: underflows a 32-bit float");
  for (const std::string& setting : {std::string("init-temperature = 1e39"), std::string("reward-scale = 1e39"),
                                     std::string("target-entropy = 1e39"), std::string("tau = 1e-50")}) {
    const std::string file = dir + "/float32.toml";
    std::ofstream(file) << setting << "\n";
    const std::string key = setting.substr(0, setting.find(' '));
    const RunResult r = check_error(with(sac, {"--config", file}), file + ":1: --" + key + ": ");
    CHECK_THAT(r.output, Catch::Contains("must be at") || Catch::Contains("underflows"));
  }
}

TEST_CASE("seedrl refuses --max-frames 0 or beyond int64 with one short line", "[cli]") {
  const std::string dir = temp_dir("cli_max_frames");
  check_error({"train", "--max-frames", "0", "--logdir", dir}, "--max-frames: must be positive, got 0");
  check_error({"train", "--max-frames", "99999999999999999999", "--logdir", dir}, "--max-frames: must be at most");
  check_error({"train", "--learning-rate", "-0.1", "--logdir", dir}, "--learning-rate: must be positive, got -0.1");
}
