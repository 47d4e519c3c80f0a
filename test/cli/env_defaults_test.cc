// `seedrl train`'s per-env defaults (cli/env_defaults): CartPole gets its own
// reward scale, entropy cost and envs per actor, MinAtar games their envs per
// actor, unless the command line or --config sets them; no other env or
// algorithm is touched. Read back from the run's checkpoint,
// which records the configuration the learner actually used.
#include <catch2/catch.hpp>
#include <fstream>

#include <nlohmann/json.hpp>

#include "run_binary.h"
#include "seedrl/io/checkpoint.h"

using namespace seedrl::test;

namespace {

struct Used {
  double reward_scale, entropy_cost;
  int envs_per_actor;
  std::string output;
};

Used train_briefly(const std::string& name, std::vector<std::string> extra) {
  const std::string dir = temp_dir(name);
  std::vector<std::string> args{"train", "--max-frames",    "2000", "--actors", "4", "--batch-size",
                                "2",     "--unroll-length", "5",    "--logdir", dir};
  args.insert(args.end(), extra.begin(), extra.end());
  RunResult r = run_seedrl(args);
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto config = nlohmann::json::parse(seedrl::read_checkpoint_header(seedrl::checkpoint_path(dir)).config_json);
  const auto& loss = config.at("loss");
  return {loss.at("reward_scale").get<double>(), loss.at("entropy_cost").get<double>(),
          config.at("envs_per_actor").get<int>(), r.output};
}

}  // namespace

TEST_CASE("cartpole trains with its own reward scale and entropy cost and envs per actor by default", "[cli][train]") {
  const Used u = train_briefly("env_defaults_cartpole", {"--env", "cartpole"});
  CHECK(u.reward_scale == Approx(0.1));
  CHECK(u.entropy_cost == Approx(0.001));
  CHECK(u.envs_per_actor == 8);
  CHECK_THAT(u.output, Catch::Contains("entropy cost 0.001 | reward scale 0.1"));
  CHECK_THAT(u.output, Catch::Contains("4 actors x 8 envs"));
}

TEST_CASE("a flag or a config key overrides cartpole's defaults one by one", "[cli][train]") {
  const Used flag = train_briefly("env_defaults_flag", {"--env", "cartpole", "--entropy-cost", "0.02"});
  CHECK(flag.entropy_cost == Approx(0.02));
  CHECK(flag.reward_scale == Approx(0.1));
  CHECK(flag.envs_per_actor == 8);

  const Used envs = train_briefly("env_defaults_envs", {"--env", "cartpole", "--envs-per-actor", "1"});
  CHECK(envs.envs_per_actor == 1);
  CHECK(envs.reward_scale == Approx(0.1));

  const std::string dir = temp_dir("env_defaults_toml");
  std::ofstream(dir + "/run.toml") << "reward-scale = 1.0\nenvs-per-actor = 2\n";
  const Used toml = train_briefly("env_defaults_config", {"--env", "cartpole", "--config", dir + "/run.toml"});
  CHECK(toml.reward_scale == Approx(1.0));
  CHECK(toml.entropy_cost == Approx(0.001));
  CHECK(toml.envs_per_actor == 2);
}

TEST_CASE("minatar games run 4 envs per actor thread and keep the global loss defaults", "[cli][train]") {
  const Used u = train_briefly("env_defaults_minatar", {"--env", "minatar:breakout"});
  CHECK(u.envs_per_actor == 4);
  CHECK(u.reward_scale == Approx(1.0));
  CHECK(u.entropy_cost == Approx(0.01));
  CHECK_THAT(u.output, Catch::Contains("4 actors x 4 envs"));
  const Used flag = train_briefly("env_defaults_minatar_flag", {"--env", "minatar:asterix", "--envs-per-actor", "2"});
  CHECK(flag.envs_per_actor == 2);
}

TEST_CASE("other envs and R2D2 keep the global defaults", "[cli][train]") {
  const Used u = train_briefly("env_defaults_other", {"--env", "pendulum"});
  CHECK(u.reward_scale == Approx(1.0));
  CHECK(u.entropy_cost == Approx(0.01));
  CHECK(u.envs_per_actor == 1);
  CHECK_THAT(u.output, Catch::Contains("entropy cost 0.01 | reward scale 1"));

  const Used r2d2 = train_briefly("env_defaults_r2d2", {"--env", "cartpole", "--algo", "r2d2", "--burn-in", "2",
                                                        "--sequence-overlap", "2", "--min-replay", "4"});
  CHECK(r2d2.reward_scale == Approx(1.0));
  CHECK(r2d2.entropy_cost == Approx(0.01));
  CHECK(r2d2.envs_per_actor == 1);
}
