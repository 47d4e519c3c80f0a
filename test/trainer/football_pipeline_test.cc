// A Football pipeline names how its episodes end (goal, lost to the keeper,
// ...) when it is built, not when the first actor thread makes its envs:
// metrics.csv's columns are its first row's keys, and that row can go out
// before any actor has started (a slow engine start), which used to leave the
// ended_* columns out of the file for the whole run. Compiled only with the
// engine (third_party/install-football.sh).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "seedrl/env/episode_outcome.h"
#include "seedrl/env/registry.h"
#include "seedrl/trainer/pipeline.h"
#include "seedrl/trainer/vtrace_algorithm.h"

using namespace seedrl;

TEST_CASE("a Football pipeline knows how its episodes end before any actor starts", "[trainer][pipeline][football]") {
  TrainConfig c;
  c.env = "football:academy_run_to_score_with_keeper";
  c.actors = 1;
  c.envs_per_actor = 1;
  c.unroll_length = 4;
  c.learner.batch_size = 1;
  c.torch_threads = 1;
  c.learner_cpus = "share";
  resolve_defaults(c);
  VTraceAlgorithm vtrace(c);
  Pipeline pipeline(c, vtrace);

  // The reference: the phrases an env of the run's own kind says.
  const EnvPtr env = EnvRegistry::builtin().make(c.env, c.env_options);
  std::vector<std::string> expected;
  for (const char* phrase : episode_outcomes(*env)) expected.emplace_back(phrase);
  REQUIRE(expected.size() >= 4);  // goal, lost to a defender, to the keeper, out of play, ...
  CHECK(pipeline.episodes().outcome_names() == expected);
  CHECK(pipeline.eval_episodes().outcome_names() == expected);
  // Before any episode has ended each share is "no value yet", not 0.
  for (double share : pipeline.episodes().outcome_shares()) CHECK(std::isnan(share));
}
