// A checkpoint's header stores the run's TrainConfig as JSON, and `seedrl
// eval` rebuilds the network from it: every model option must come back.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "seedrl/trainer/train_config.h"

using namespace seedrl;

TEST_CASE("a checkpoint's config JSON gives back every model option", "[trainer][checkpoint]") {
  TrainConfig c;
  c.env = "minatar:breakout";
  c.model.torso = "impala";
  c.model.hidden = {32, 16};
  c.model.lstm = true;
  c.model.lstm_size = 48;
  c.model.normalize_obs = true;
  c.model.activation = "tanh";
  c.model.separate_value_net = true;
  c.model.prev_action_input = true;
  c.model.precision = "bf16";
  c.model.weight_init = "orthogonal";
  c.learner.minibatches = 4;
  const TrainConfig back = train_config_from_json(to_json(c));
  CHECK(back.env == c.env);
  CHECK(back.model.torso == "impala");
  CHECK(back.model.hidden == std::vector<int>{32, 16});
  CHECK(back.model.lstm);
  CHECK(back.model.lstm_size == 48);
  CHECK(back.model.normalize_obs);
  CHECK(back.model.activation == "tanh");
  CHECK(back.model.separate_value_net);
  CHECK(back.model.prev_action_input);
  CHECK(back.model.precision == "bf16");
  CHECK(back.model.weight_init == "orthogonal");
  CHECK(back.learner.minibatches == 4);

  // A checkpoint written before --precision existed computes in float32.
  auto j = nlohmann::json::parse(to_json(c));
  j["model"].erase("precision");
  CHECK(train_config_from_json(j.dump()).model.precision == "fp32");
}

TEST_CASE("a checkpoint's config JSON keeps the periodic evaluation settings", "[trainer][checkpoint][eval]") {
  TrainConfig c;
  c.eval_every_s = 12.5;
  c.eval_episodes = 7;
  c.eval_greedy = true;
  const TrainConfig back = train_config_from_json(to_json(c));
  CHECK(back.eval_every_s == 12.5);
  CHECK(back.eval_episodes == 7);
  CHECK(back.eval_greedy);
  // A checkpoint written before --eval-every-s existed: evaluations off.
  auto j = nlohmann::json::parse(to_json(c));
  j.erase("eval");
  const TrainConfig old = train_config_from_json(j.dump());
  CHECK(old.eval_every_s == 0);
  CHECK(old.eval_episodes == TrainConfig{}.eval_episodes);
  CHECK_FALSE(old.eval_greedy);
}

TEST_CASE("a checkpoint's config JSON keeps --learner-cpus, also under its old key", "[trainer][checkpoint][config]") {
  TrainConfig c;
  c.learner_cpus = "share";
  const auto j = nlohmann::json::parse(to_json(c));
  CHECK(j.at("learner_cpus") == "share");
  CHECK_FALSE(j.contains("learner_cores"));
  CHECK(train_config_from_json(j.dump()).learner_cpus == "share");
  // Builds before the rename wrote "learner_cores": a --resume of such a run reads it.
  auto old = j;
  old.erase("learner_cpus");
  old["learner_cores"] = "reserve";
  CHECK(train_config_from_json(old.dump()).learner_cpus == "reserve");
  old.erase("learner_cores");
  CHECK(train_config_from_json(old.dump()).learner_cpus == TrainConfig{}.learner_cpus);
}

TEST_CASE("a checkpoint's config JSON keeps the entropy schedule", "[trainer][checkpoint][config]") {
  TrainConfig c;
  c.learner.loss.entropy_cost = 0.02;
  c.learner.loss.entropy_cost_final = 0.001;
  const TrainConfig back = train_config_from_json(to_json(c));
  CHECK(back.learner.loss.entropy_cost == 0.02);
  CHECK(back.learner.loss.entropy_cost_final == 0.001);
  // A checkpoint written before --entropy-cost-final existed: a constant cost.
  auto j = nlohmann::json::parse(to_json(c));
  j["loss"].erase("entropy_cost_final");
  CHECK(train_config_from_json(j.dump()).learner.loss.entropy_cost_final < 0);
}

TEST_CASE("a checkpoint's config JSON keeps the shot-hold curriculum", "[trainer][checkpoint][config]") {
  TrainConfig c;
  c.env_options.football_shot_hold_prob = 1;
  c.env_options.football_shot_hold_prob_final = 0.125;
  const TrainConfig back = train_config_from_json(to_json(c));
  CHECK(back.env_options.football_shot_hold_prob == 1);
  CHECK(back.env_options.football_shot_hold_prob_final == 0.125);
  // A checkpoint from before the curriculum: a constant share.
  auto j = nlohmann::json::parse(to_json(c));
  j.erase("football_shot_hold_prob_final");
  CHECK(train_config_from_json(j.dump()).env_options.football_shot_hold_prob_final < 0);
}

TEST_CASE("a checkpoint's config JSON keeps --fixed-targets, and older ones recompute the targets per pass",
          "[trainer][checkpoint]") {
  TrainConfig c;
  c.learner.loss.fixed_targets = true;
  CHECK(train_config_from_json(to_json(c)).learner.loss.fixed_targets);
  auto j = nlohmann::json::parse(to_json(c));
  j["loss"].erase("fixed_targets");
  CHECK_FALSE(train_config_from_json(j.dump()).learner.loss.fixed_targets);
}
