// train --init-checkpoint: a fresh run whose network starts from another
// run's weights (fine-tuning, a curriculum), with its own counters and a fresh
// optimizer; anything that does not fit is refused in one line before the
// run directory is made.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "../io/checkpoint_bytes.h"
#include "cartpole_checkpoint.h"
#include "one_line_error.h"
#include "run_binary.h"
#include "seedrl/env/registry.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/model/agent_net.h"
#include "seedrl/model/policy_distribution.h"

using namespace seedrl;
using namespace seedrl::test;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kCartpole = {
    "train", "--env",           "cartpole", "--actors",         "4",  "--envs-per-actor", "2", "--batch-size",
    "4",     "--unroll-length", "20",       "--log-interval-s", "0.2"};

// A CartPole checkpoint's network (the default MLP), loaded.
AgentNet load_net(const std::string& path) {
  const EnvSpec spec = EnvRegistry::builtin().make("cartpole", {})->spec();
  AgentNet net(spec, ModelConfig{}, make_policy_distribution(spec.action)->param_size());
  load_checkpoint(path, *net, nullptr);
  return net;
}

// The largest absolute difference between two nets' parameters.
double max_difference(const AgentNet& a, const AgentNet& b) {
  const auto pa = a->parameters(), pb = b->parameters();
  REQUIRE(pa.size() == pb.size());
  double worst = 0;
  for (std::size_t i = 0; i < pa.size(); ++i) worst = std::max(worst, (pa[i] - pb[i]).abs().max().item<double>());
  return worst;
}

}  // namespace

TEST_CASE("train --init-checkpoint starts a fresh run from another run's weights", "[cli][train][checkpoint]") {
  const std::string source = temp_dir("init_ckpt_source");
  const RunResult a = run_seedrl(with(kCartpole, {"--max-frames", "6000", "--seed", "3", "--logdir", source}));
  INFO(a.output);
  REQUIRE(a.status == 0);
  const std::string from = checkpoint_path(source);
  const std::int64_t source_steps = read_checkpoint_header(from).counters.learner_steps;
  REQUIRE(source_steps > 0);

  // A learning rate too small to move a float32 weight: the run's weights at
  // its end are the ones it started from.
  const std::vector<std::string> still = with(kCartpole, {"--seed", "4", "--learning-rate", "1e-30"});
  const std::string tuned = temp_dir("init_ckpt_tuned");
  const RunResult b = run_seedrl(with(still, {"--max-frames", "3000", "--init-checkpoint", from, "--logdir", tuned}));
  INFO(b.output);
  REQUIRE(b.status == 0);
  CHECK(b.output.find("network from " + from + " (--init-checkpoint") != std::string::npos);
  const std::string tuned_path = checkpoint_path(tuned);
  CHECK(max_difference(load_net(tuned_path), load_net(from)) < 1e-20);

  // Without the flag the same run keeps its own seed's weights, far from those.
  const std::string fresh = temp_dir("init_ckpt_fresh");
  const RunResult c = run_seedrl(with(still, {"--max-frames", "3000", "--logdir", fresh}));
  INFO(c.output);
  REQUIRE(c.status == 0);
  CHECK(max_difference(load_net(checkpoint_path(fresh)), load_net(from)) > 1e-3);

  // Its own counters and a fresh optimizer: Adam's step counts are this run's
  // learner steps, not the source's added to them.
  const auto counters = read_checkpoint_header(tuned_path).counters;
  CHECK(counters.frames >= 3000);
  CHECK(counters.frames < 6000);
  REQUIRE(counters.learner_steps > 0);
  const auto index = split_checkpoint(file_bytes(tuned_path)).index;
  for (const auto& p : index["optimizer"]["params"]) CHECK(p["step"].get<std::int64_t>() == counters.learner_steps);

  SECTION("--resume continues the run's own checkpoint and does not read the flag's file") {
    const RunResult r = run_seedrl(
        with(still, {"--max-frames", "4500", "--init-checkpoint", "/no/such/file.pt", "--logdir", tuned, "--resume"}));
    INFO(r.output);
    CHECK(r.status == 0);
    CHECK(read_checkpoint_header(tuned_path).counters.frames >= 4500);
  }
}

TEST_CASE("train --init-checkpoint refuses what does not fit in one line, before making the run directory",
          "[cli][train][checkpoint]") {
  const std::string dir = temp_dir("init_ckpt_refused");
  const std::string cartpole = cartpole_checkpoint(dir);
  const std::string logdir = dir + "/run";
  const auto refused = [&](std::vector<std::string> args, const std::string& names) {
    args.insert(args.end(), {"--max-frames", "1000", "--logdir", logdir});
    check_one_line_error(args, names);
    CHECK_FALSE(fs::exists(logdir));
  };
  SECTION("a missing file") {
    refused({"train", "--env", "cartpole", "--init-checkpoint", dir + "/missing.pt"},
            "--init-checkpoint: checkpoint " + dir + "/missing.pt");
  }
  SECTION("another algorithm's weights") {
    refused({"train", "--algo", "r2d2", "--env", "cartpole", "--init-checkpoint", cartpole},
            "--init-checkpoint: " + cartpole + " holds vtrace weights; this run trains r2d2");
  }
  SECTION("another env's shapes") {
    refused({"train", "--env", "acrobot", "--init-checkpoint", cartpole},
            "--init-checkpoint: checkpoint " + cartpole + " does not match this model");
  }
  SECTION("another network") {
    refused({"train", "--env", "cartpole", "--hidden", "32", "--init-checkpoint", cartpole},
            "(its run: --env cartpole --model");
  }
}
