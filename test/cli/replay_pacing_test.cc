// R2D2's and SAC's pacing flags are checked against --batch-size and
// --max-frames once every default applies: a --replay-ratio that would stall
// the run or leave it one update, a --min-replay the run never reaches, SAC's
// --random-steps that would leave no step to the policy. Each is one line
// naming the flags, a default named as one; sensible settings pass.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "one_line_error.h"
#include "run_binary.h"
#include "seedrl/cli/r2d2_flags.h"
#include "seedrl/cli/replay_pacing.h"
#include "seedrl/cli/sac_flags.h"
#include "seedrl/cli/validators.h"

using namespace seedrl;

namespace {

// The pacing flags as train registers them, --max-frames and --batch-size,
// parsed from `args` and given R2D2's or SAC's defaults as train gives them.
struct Pacing {
  CLI::App app;
  TrainConfig config;
  explicit Pacing(const std::string& args) {
    app.add_option("--max-frames", config.learner.max_frames);
    app.add_option("--batch-size", config.learner.batch_size);
    add_r2d2_learner_flags(app, config);
    add_sac_flags(app, config);
    check_number_options(app);
    app.parse(args);
    apply_r2d2_defaults(app, config);
    apply_sac_defaults(app, config);
  }
  std::string error() const {
    try {
      check_replay_pacing(app, config);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  }
};

const std::string kSacPaced = "--algo sac --max-frames 3000 --random-steps 500 --min-replay 500 ";

}  // namespace

TEST_CASE("--replay-ratio must give at most 1000 updates per insert and one update per run", "[cli][replay]") {
  CHECK(Pacing(kSacPaced).error().empty());
  CHECK(Pacing(kSacPaced + "--replay-ratio 1e30").error() ==
        "--replay-ratio: 1e+30 exceeds 1000 x --batch-size 256 (the default): over 1000 learner updates per "
        "transition inserted");
  CHECK(Pacing(kSacPaced + "--replay-ratio 1e-30").error() ==
        "--replay-ratio: 1e-30 x --max-frames 3000 samples less than one --batch-size 256 (the default): the learner "
        "would update once in the whole run");
  // The bounds themselves pass: 1000 updates per transition, one batch over the run.
  CHECK(Pacing(kSacPaced + "--batch-size 32 --replay-ratio 32000").error().empty());
  CHECK_THAT(Pacing(kSacPaced + "--batch-size 32 --replay-ratio 32001").error(),
             Catch::StartsWith("--replay-ratio: 32001"));
  CHECK(Pacing(kSacPaced + "--batch-size 1500 --replay-ratio 0.5").error().empty());
  CHECK_THAT(Pacing(kSacPaced + "--batch-size 1501 --replay-ratio 0.5").error(),
             Catch::StartsWith("--replay-ratio: 0.5 x --max-frames 3000"));
  CHECK(Pacing(kSacPaced + "--replay-ratio 0").error().empty());  // no limit
  // R2D2 counts sequences.
  CHECK(Pacing("--algo r2d2 --max-frames 3000 --replay-ratio 1e30").error() ==
        "--replay-ratio: 1e+30 exceeds 1000 x --batch-size 64 (the default): over 1000 learner updates per sequence "
        "inserted");
  CHECK(Pacing("--algo r2d2 --max-frames 3000").error().empty());
  CHECK(Pacing("--algo r2d2 --replay-ratio 2 --min-replay 500").error().empty());
}

TEST_CASE("--min-replay, SAC's --random-steps and --batch-size must leave the learner steps to take", "[cli][replay]") {
  CHECK(Pacing("--algo sac --max-frames 3000 --random-steps 500 --min-replay 5000").error() ==
        "--min-replay: 5000 exceeds --max-frames 3000: the replay would never fill, nor the learner start");
  CHECK(Pacing("--algo sac --max-frames 3000 --random-steps 500").error() ==
        "--min-replay: 10000 (the default) exceeds --max-frames 3000: the replay would never fill, nor the learner "
        "start");
  CHECK(Pacing("--algo sac --max-frames 3000 --min-replay 500 --random-steps 3000").error() ==
        "--random-steps: 3000 is not below --max-frames 3000: every step would act at random, none by the policy "
        "learned");
  CHECK(Pacing("--algo sac --max-frames 3000 --min-replay 500 --random-steps 2999").error().empty());
  CHECK(Pacing(kSacPaced + "--batch-size 4000 --replay-ratio 4000").error() ==
        "--batch-size: 4000 exceeds --max-frames 3000: the replay would never hold a batch, nor the learner start");
  CHECK(Pacing("--algo sac --max-frames 3000 --min-replay 3000 --random-steps 0").error().empty());
  CHECK(Pacing("--algo r2d2 --max-frames 3000 --min-replay 3001").error() ==
        "--min-replay: 3001 exceeds --max-frames 3000: the replay would never fill, nor the learner start");
  // The defaults and --max-frames's own default pass.
  CHECK(Pacing("--algo sac").error().empty());
  CHECK(Pacing("--algo r2d2").error().empty());
  // V-trace reads none of them.
  CHECK(Pacing("--max-frames 10 --min-replay 5000").error().empty());
}

TEST_CASE("seedrl train refuses pacing that would stall or idle the learner in one line", "[cli][replay]") {
  const std::string dir = test::temp_dir("cli_replay_pacing");
  const std::vector<std::string> sac{"train", "--env",    "pendulum", "--algo",          "sac", "--max-frames",
                                     "3000",  "--actors", "1",        "--torch-threads", "1",   "--critic-threads",
                                     "1",     "--logdir", dir};
  test::check_one_line_error(
      test::with(sac, {"--random-steps", "500", "--min-replay", "500", "--replay-ratio", "1e30"}),
      "--replay-ratio: 1e+30 exceeds 1000 x --batch-size");
  test::check_one_line_error(
      test::with(sac, {"--random-steps", "500", "--min-replay", "500", "--replay-ratio", "1e-30"}),
      "the learner would update once in the whole run");
  test::check_one_line_error(test::with(sac, {"--random-steps", "500", "--min-replay", "5000"}),
                             "--min-replay: 5000 exceeds --max-frames 3000");
  test::check_one_line_error(test::with(sac, {"--random-steps", "5000", "--min-replay", "500"}),
                             "--random-steps: 5000 is not below --max-frames 3000");
}
