// A flag the chosen --algo does not read is refused in one line naming it,
// where it would otherwise be ignored in silence; flags the algorithm reads,
// and a resumed run's saved settings, pass. The table agrees with what
// train's --help says of each flag ("V-trace:", "R2D2:", "SAC:", ...).
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "one_line_error.h"
#include "run_binary.h"
#include "seedrl/cli/algorithm_flags.h"
#include "seedrl/cli/commands.h"
#include "seedrl/cli/config_file.h"
#include "seedrl/cli/sac_flags.h"
#include "seedrl/cli/validators.h"

using namespace seedrl;

namespace {

// train's real flags, parsed from `args`.
struct Train {
  CLI::App app;
  CLI::App* cmd = nullptr;
  CommandRunner runner;  // owns the variables the flags write into
  std::set<std::string> typed;
  explicit Train(const std::string& args) {
    runner = add_train_command(app);
    app.parse("train " + args);
    cmd = app.get_subcommand("train");
    typed = given_flags(*cmd);
  }
  std::string algo() const { return cmd->get_option("--algo")->as<std::string>(); }
  // The error check_algorithm_flags gives, or "" for none.
  std::string error(const std::string& config_file = "") const {
    try {
      check_algorithm_flags(*cmd, algo(), typed, config_file);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  }
};

// SAC's flags and --model, parsed into a config of its own, as
// check_sac_flags sees them once train has parsed.
struct Sac {
  CLI::App app;
  TrainConfig config;
  std::set<std::string> typed;  // before any config file
  explicit Sac(const std::string& args) {
    config.algo = "sac";
    app.add_option("--model", config.model.torso);
    add_sac_flags(app, config);
    check_number_options(app);
    app.parse(args);
    typed = given_flags(app);
  }
  std::string error(const std::string& config_file = "") const {
    try {
      check_sac_flags(app, config, typed, config_file);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  }
};

}  // namespace

TEST_CASE("train refuses a flag its --algo would ignore, naming the flag and who reads it", "[cli]") {
  CHECK(Train("--algo r2d2 --entropy-cost 0.1").error() == "--entropy-cost: V-trace only; --algo r2d2 would ignore it");
  CHECK(Train("--tau 0.01").error() == "--tau: SAC only; --algo vtrace would ignore it");
  CHECK(Train("--algo vtrace --n-step 3").error() == "--n-step: R2D2 and SAC only; --algo vtrace would ignore it");
  CHECK(Train("--algo sac --max-grad-norm 10").error() ==
        "--max-grad-norm: V-trace and R2D2 only; --algo sac would ignore it");
  CHECK(Train("--algo sac --epsilon 0.1").error() == "--epsilon: R2D2 only; --algo sac would ignore it");
  CHECK(Train("--algo r2d2 --eval-every-s 60").error() ==
        "--eval-every-s: V-trace only; --algo r2d2 would ignore it (R2D2 evaluates all along with --eval-envs; "
        "evaluate a SAC checkpoint with seedrl eval)");
  // A negated name counts as the flag.
  CHECK(Train("--algo sac --no-ppo-decoupled").error() == "--ppo-decoupled: V-trace only; --algo sac would ignore it");
  CHECK(Train("--algo r2d2 --fixed-targets").error() == "--fixed-targets: V-trace only; --algo r2d2 would ignore it");
  CHECK(Train("--algo r2d2 --entropy-cost-final 0").error() ==
        "--entropy-cost-final: V-trace only; --algo r2d2 would ignore it");
}

TEST_CASE("train accepts the flags each algorithm reads", "[cli]") {
  CHECK(Train("--entropy-cost 0.1 --lambda 0.95 --ppo-clip 0.1 --epochs 2 --unroll-length 20 --lstm").error().empty());
  CHECK(Train("--algo r2d2 --n-step 3 --burn-in 5 --epsilon 0.1 --max-grad-norm 40 --lstm --unroll-length 40")
            .error()
            .empty());
  CHECK(Train("--algo sac --n-step 3 --tau 0.01 --critic-threads 1 --reward-scale 5 --reward-clip 10 --adam-eps 1e-4")
            .error()
            .empty());
  // Flags every algorithm reads are not in the table.
  CHECK(Train("--algo sac --learning-rate 0.001 --discount 0.98 --batch-size 64 --hidden 32 32").error().empty());
}

TEST_CASE("a config file's flag its algo would ignore is refused by the file, a resumed run's settings pass", "[cli]") {
  const std::string dir = test::temp_dir("cli_algorithm_flags");
  const std::string file = dir + "/run.toml";
  std::ofstream(file) << "algo = \"sac\"\nentropy-cost = 0.01\n";
  {
    Train t("");
    apply_config_file(*t.cmd, file);
    CHECK(t.error(file) == file + ": --entropy-cost: V-trace only; --algo sac would ignore it");
  }
  {
    // On --resume the run's saved config.toml is applied without naming a
    // file: its settings were checked when the run began.
    Train t("--resume");
    apply_config_file(*t.cmd, file);
    CHECK(t.error().empty());
  }
  {
    // The command line still counts on resume.
    Train t("--resume --epsilon 0.2");
    apply_config_file(*t.cmd, file);
    CHECK(t.error() == "--epsilon: R2D2 only; --algo sac would ignore it");
  }
}

TEST_CASE("SAC refuses flags it would ignore by their value or together", "[cli][sac]") {
  // Its actor and critics are MLPs.
  for (const char* model : {"minatar", "impala", "impala-shallow", "nature"})
    CHECK(Sac(std::string("--model ") + model).error() ==
          std::string("--model: SAC's networks are MLPs (--hidden, --activation); --algo sac would ignore --model ") +
              model);
  CHECK(Sac("--model mlp").error().empty());
  CHECK(Sac("--model auto").error().empty());
  // A fixed temperature never reads the target entropy.
  CHECK(Sac("--fixed-temperature --target-entropy -2").error() ==
        "--target-entropy: --fixed-temperature keeps --init-temperature and would ignore it");
  CHECK(Sac("--target-entropy -2 --learn-temperature=false").error() ==
        "--target-entropy: --fixed-temperature keeps --init-temperature and would ignore it");
  CHECK(Sac("--fixed-temperature --target-entropy auto").error().empty());  // the default: no target
  CHECK(Sac("--fixed-temperature --init-temperature 0.2").error().empty());
  CHECK(Sac("--target-entropy -2").error().empty());
  // Both ways on one command line: CLI11 would let the last win in silence.
  CHECK(Sac("--learn-temperature --fixed-temperature").error() ==
        "--learn-temperature, --fixed-temperature: both given; the one given last would silently win");
  CHECK(Sac("--fixed-temperature --learn-temperature").error() ==
        "--learn-temperature, --fixed-temperature: both given; the one given last would silently win");
  CHECK(Sac("--fixed-temperature --fixed-temperature").error().empty());
  CHECK_FALSE(Sac("--fixed-temperature").config.sac.learn_temperature);
}

TEST_CASE("--target-entropy takes auto, the default --help shows", "[cli][sac]") {
  CHECK(std::isnan(Sac("--target-entropy auto").config.sac.target_entropy));
  CHECK(std::isnan(Sac("").config.sac.target_entropy));
  CHECK(Sac("--target-entropy -3").config.sac.target_entropy == -3);
  CHECK_THROWS_WITH(Sac("--target-entropy nan"), "--target-entropy: must be a finite number, got nan");
  CHECK_THROWS_WITH(Sac("--target-entropy automatic"), "--target-entropy: expected a number, got 'automatic'");
}

TEST_CASE("SAC's flag combinations from a config file are refused by the file, a resumed run's pass", "[cli][sac]") {
  const std::string dir = test::temp_dir("cli_sac_flags");
  const std::string file = dir + "/run.toml";
  std::ofstream(file) << "model = \"impala\"\n";
  {
    Sac s("");
    apply_config_file(s.app, file);
    CHECK(s.error(file) == file +
                               ": --model: SAC's networks are MLPs (--hidden, --activation); --algo sac would ignore "
                               "--model impala");
    CHECK(s.error().empty());  // --resume: the run's own saved settings
  }
  std::ofstream(file) << "fixed-temperature = true\ntarget-entropy = -2.0\n";
  {
    Sac s("");
    apply_config_file(s.app, file);
    CHECK(s.error(file) ==
          file + ": --target-entropy: --fixed-temperature keeps --init-temperature and would ignore it");
    CHECK(s.error().empty());
  }
  {
    // On resume, a target given now against the saved fixed temperature counts.
    Sac s("--target-entropy -1");
    std::ofstream(file) << "fixed-temperature = true\n";
    apply_config_file(s.app, file);
    CHECK(s.error() == "--target-entropy: --fixed-temperature keeps --init-temperature and would ignore it");
  }
}

TEST_CASE("seedrl train --algo sac refuses --model minatar and contradictory temperatures in one line", "[cli][sac]") {
  const std::string dir = test::temp_dir("cli_sac_flags_run");
  const std::vector<std::string> sac{"train", "--algo",         "sac", "--env",        "pendulum", "--max-frames",
                                     "3000",  "--random-steps", "500", "--min-replay", "500",      "--logdir",
                                     dir};
  test::check_one_line_error(test::with(sac, {"--model", "minatar"}), "--model: SAC's networks are MLPs");
  test::check_one_line_error(test::with(sac, {"--model", "impala"}), "--algo sac would ignore --model impala");
  test::check_one_line_error(test::with(sac, {"--fixed-temperature", "--target-entropy", "-2"}),
                             "--target-entropy: --fixed-temperature");
  test::check_one_line_error(test::with(sac, {"--learn-temperature", "--fixed-temperature"}),
                             "--learn-temperature, --fixed-temperature: both given");
  std::ofstream(dir + "/both.toml") << "learn-temperature = true\nfixed-temperature = true\n";
  test::check_one_line_error(test::with(sac, {"--config", dir + "/both.toml"}),
                             dir + "/both.toml:2: --fixed-temperature: line 1 already set --learn-temperature");
}

TEST_CASE("seedrl train refuses --algo r2d2 --entropy-cost in one line", "[cli]") {
  test::check_one_line_error(
      {"train", "--algo", "r2d2", "--entropy-cost", "0.1", "--logdir", test::temp_dir("cli_algorithm_flags_run")},
      "--entropy-cost: V-trace only; --algo r2d2 would ignore it");
}

TEST_CASE("the table agrees with what train's --help says reads each flag", "[cli]") {
  CLI::App app;
  const CommandRunner runner = add_train_command(app);
  const CLI::App* train = app.get_subcommand("train");
  const std::pair<const char*, unsigned> prefixes[] = {{"V-trace and R2D2:", kVTrace | kR2D2},
                                                       {"R2D2 and SAC:", kR2D2 | kSac},
                                                       {"R2D2:", kR2D2},
                                                       {"SAC:", kSac},
                                                       {"V-trace:", kVTrace}};
  // What the help says: its prefix, and "R2D2: ...; SAC: ..." read by both.
  const auto said = [&](const std::string& help) -> unsigned {
    for (const auto& [prefix, algorithms] : prefixes)
      if (help.rfind(prefix, 0) == 0)
        return help.find("; SAC:") != std::string::npos ? (algorithms | kSac) : algorithms;
    return 0;
  };
  for (const AlgorithmFlag& f : algorithm_flags()) {
    const CLI::Option* opt = train->get_option_no_throw(f.flag);
    INFO(f.flag);
    REQUIRE(opt != nullptr);
    INFO(opt->get_description());
    CHECK(said(opt->get_description()) == f.algorithms);
  }
  int labelled = 0;
  for (const CLI::Option* opt : train->get_options()) {
    if (opt->get_lnames().empty() || said(opt->get_description()) == 0) continue;
    ++labelled;
    const std::string flag = "--" + opt->get_lnames().front();
    bool listed = false;
    for (const AlgorithmFlag& f : algorithm_flags()) listed = listed || flag == f.flag;
    INFO(flag << ": " << opt->get_description());
    CHECK(listed);
  }
  CHECK(labelled == static_cast<int>(algorithm_flags().size()));
}
