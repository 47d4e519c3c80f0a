// PeriodicEval in-process: best.pt holds exactly the published weights that
// earned its score, and only a better score replaces it.
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>

#include <torch/torch.h>

#include "../cli/run_binary.h"
#include "seedrl/env/registry.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/model/policy_distribution.h"
#include "seedrl/trainer/periodic_eval.h"

using namespace seedrl;

namespace {

bool same_weights(torch::nn::Module& a, torch::nn::Module& b) {
  auto pa = a.parameters(), pb = b.parameters();
  if (pa.size() != pb.size()) return false;
  for (std::size_t i = 0; i < pa.size(); ++i)
    if (!torch::equal(pa[i], pb[i])) return false;
  return true;
}

}  // namespace

TEST_CASE("an evaluation saves the weights it played with as best.pt and only a better one replaces them",
          "[trainer][eval]") {
  TrainConfig config;
  config.logdir = test::temp_dir("periodic_eval");
  config.eval_every_s = 1000;  // evaluate_final only
  config.eval_episodes = 2;
  config.eval_greedy = true;
  const EnvSpec spec = EnvRegistry::builtin().make(config.env)->spec();
  const int policy_size = make_policy_distribution(spec.action)->param_size();
  torch::manual_seed(11);
  AgentNet first(spec, config.model, policy_size), second(spec, config.model, policy_size);
  ParamPublisher publisher;
  std::atomic<std::int64_t> frames{1234};
  PeriodicEval eval(config, spec, policy_size, publisher, frames, std::nullopt);
  const auto never = [] { return false; };

  publisher.publish(*first, 7);
  eval.evaluate_final(never);
  auto rows = eval.take_rows();
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].at("eval_frames") == 1234);
  CHECK(rows[0].at("eval_episodes") == 2);
  const std::string best = best_checkpoint_path(config.logdir);
  const auto recorded = read_best_eval(best);
  REQUIRE(recorded);
  CHECK(recorded->return_mean == rows[0].at("eval_return_mean"));
  CHECK(recorded->learner_steps == 7);
  AgentNet loaded(spec, config.model, policy_size);
  CHECK(load_checkpoint(best, *loaded, nullptr).counters.learner_steps == 7);
  CHECK(same_weights(*loaded, *first));
  CHECK_FALSE(same_weights(*loaded, *second));

  // The same version again: nothing new to evaluate.
  eval.evaluate_final(never);
  CHECK(eval.take_rows().empty());

  // A stop at once ends an evaluation without a row.
  publisher.publish(*second, 8);
  eval.evaluate_final([] { return true; });
  CHECK(eval.take_rows().empty());

  eval.evaluate_final(never);
  rows = eval.take_rows();
  REQUIRE(rows.size() == 1);
  const bool better = rows[0].at("eval_return_mean") > recorded->return_mean;
  load_checkpoint(best, *loaded, nullptr);
  CHECK(same_weights(*loaded, better ? *second : *first));
  CHECK(read_best_eval(best)->return_mean == std::max(recorded->return_mean, rows[0].at("eval_return_mean")));
  Scalars summary;
  eval.add_summary(summary);
  CHECK(summary.at("eval_return_mean") == rows[0].at("eval_return_mean"));
  CHECK(summary.at("eval_best_return_mean") == read_best_eval(best)->return_mean);
}
