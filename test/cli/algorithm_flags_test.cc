// A flag the chosen --algo does not read is refused in one line naming it,
// where it would otherwise be ignored in silence; flags the algorithm reads,
// and a resumed run's saved settings, pass. The table agrees with what
// train's --help says of each flag ("V-trace:", "R2D2:", "SAC:", ...).
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include <CLI/CLI.hpp>

#include "one_line_error.h"
#include "run_binary.h"
#include "seedrl/cli/algorithm_flags.h"
#include "seedrl/cli/commands.h"
#include "seedrl/cli/config_file.h"

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
