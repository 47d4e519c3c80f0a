// `seedrl bench --profile-learner`: one V-trace update taken apart on the CPU.
// Every phase is timed, the model is the one configured (its parameter count
// in closed form), and the CLI refuses it for R2D2 in one line.
#include <catch2/catch.hpp>

#include "../cli/one_line_error.h"
#include "seedrl/bench/stage_bench.h"
#include "seedrl/trainer/train_config.h"

using namespace seedrl;

TEST_CASE("the learner profile times every phase of a CPU V-trace update", "[learner][bench]") {
  TrainConfig c;
  c.env = "cartpole";
  c.device = "cpu";
  c.model.torso = "mlp";
  c.model.hidden = {64, 64};
  c.unroll_length = 5;
  c.learner.batch_size = 4;
  resolve_defaults(c);
  const bench::LearnerProfile p = bench::profile_learner_update(c, 3);
  CHECK(p.device == "cpu");
  CHECK(p.updates == 3);
  CHECK(p.frames_per_update == 5 * 4);
  // CartPole: 4 inputs -> 64 -> 64, a 2-logit policy head and a value head.
  CHECK(p.parameters == (4 * 64 + 64) + (64 * 64 + 64) + (64 * 2 + 2) + (64 + 1));
  REQUIRE(p.phases.size() == 7);
  REQUIRE(p.phase_ms.size() == p.phases.size());
  double sum = 0;
  for (double ms : p.phase_ms) {
    CHECK(ms >= 0);
    sum += ms;
  }
  CHECK(sum > 0);
  CHECK(p.unsynchronised_ms > 0);
  const std::string table = bench::format_learner_profile(c, p);
  for (const auto& phase : p.phases) CHECK_THAT(table, Catch::Contains(phase));
  CHECK_THAT(table, Catch::Contains("update, unsynchronised"));
}

TEST_CASE("bench --profile-learner is V-trace's: with --algo r2d2 it is one line", "[cli][bench]") {
  test::check_one_line_error({"bench", "--algo", "r2d2", "--env", "cartpole", "--profile-learner", "2"},
                             "--profile-learner");
}

TEST_CASE("bench --profile-learner runs alone: with --sweep it is one line", "[cli][bench]") {
  test::check_one_line_error({"bench", "--env", "cartpole", "--profile-learner", "2", "--sweep", "actors=2,4"},
                             "--profile-learner");
}
