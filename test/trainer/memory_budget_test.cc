// The start-up memory estimate: it counts the parameters the real models
// have, and refuses a run that cannot fit in one line naming the flag that
// sizes its largest part, before anything is allocated.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include <torch/torch.h>

#include "seedrl/env/registry.h"
#include "seedrl/model/agent_net.h"
#include "seedrl/model/policy_distribution.h"
#include "seedrl/model/q_net.h"
#include "seedrl/trainer/memory_budget.h"
#include "seedrl/util/available_memory.h"

using namespace seedrl;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

EnvSpec spec_of(const std::string& env) { return EnvRegistry::builtin().make(env, {})->spec(); }

double built_parameters(const TrainConfig& c, const EnvSpec& spec) {
  std::int64_t n = 0;
  if (c.algo == "r2d2") {
    QNet net(spec, c.model);
    for (const auto& p : net->parameters()) n += p.numel();
  } else {
    AgentNet net(spec, c.model, make_policy_distribution(spec.action)->param_size());
    for (const auto& p : net->parameters()) n += p.numel();
  }
  return static_cast<double>(n);
}

TrainConfig resolved(TrainConfig c) {
  resolve_defaults(c);
  return c;
}

std::string refusal(const MemoryEstimate& e, double available) {
  try {
    check_memory(e, available);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the parameter count matches the models as built", "[trainer][memory]") {
  struct Case {
    std::string env;
    TrainConfig config;
  };
  std::vector<Case> cases;
  TrainConfig c;
  cases.push_back({"cartpole", c});
  c.model.hidden = {32, 16};
  c.model.activation = "tanh";
  c.model.separate_value_net = true;
  cases.push_back({"pendulum", c});  // Gaussian head, log-std, a value torso of its own
  c = TrainConfig{};
  c.model.lstm = true;
  c.model.lstm_size = 24;
  cases.push_back({"cartpole", c});
  c.model.prev_action_input = true;  // the previous action's one-hot into the LSTM
  cases.push_back({"cartpole", c});
  c = TrainConfig{};
  c.model.prev_action_input = true;  // ... into both heads, and with a value torso of its own
  cases.push_back({"minatar:breakout", c});
  c.model.separate_value_net = true;
  cases.push_back({"minatar:breakout", c});
  c = TrainConfig{};
  cases.push_back({"minatar:breakout", c});  // the MinAtar torso
  c.model.torso = "mlp";
  c.model.hidden = {8};
  cases.push_back({"minatar:breakout", c});
  c = TrainConfig{};
  cases.push_back({"synthetic:atari", c});  // the IMPALA torso
  c.model.torso = "impala-shallow";
  cases.push_back({"synthetic:atari", c});
  c.model.torso = "nature";
  cases.push_back({"synthetic:atari", c});
  c = TrainConfig{};
  c.algo = "r2d2";
  c.model.lstm = true;
  c.model.hidden = {48};
  cases.push_back({"cartpole", c});  // QNet: LSTM fed the last action and reward, dueling heads
  c.model.lstm = false;
  cases.push_back({"minatar:space_invaders", c});
  for (const auto& k : cases) {
    INFO(k.env << " " << k.config.algo << " " << k.config.model.torso << " lstm " << k.config.model.lstm);
    const EnvSpec spec = spec_of(k.env);
    CHECK(parameter_count(k.config, spec) == built_parameters(k.config, spec));
  }
}

TEST_CASE("a model of --hidden 65536 65536 is refused in one line naming --hidden, before anything is built",
          "[trainer][memory]") {
  TrainConfig c;
  c.env = "minatar:breakout";
  c.model.torso = "mlp";
  c.model.hidden = {65536, 65536};
  const MemoryEstimate e = estimate_memory(resolved(c), spec_of(c.env), {});
  std::string flag;
  CHECK(parameter_count(c, spec_of(c.env), &flag) > 4e9);
  CHECK(flag == "--hidden");
  CHECK(e.largest().flag == "--hidden");
  CHECK(e.total() > 100 * kGiB);  // weights, gradients, Adam's two moments, inference and published copies
  const std::string why = refusal(e, 64 * kGiB);
  CHECK_THAT(why, Catch::StartsWith("--hidden: the model (4.32e+09 parameters"));
  CHECK_THAT(why, Catch::Contains("more than the 64.0 GiB of memory available"));
  CHECK(why.find('\n') == std::string::npos);
}

TEST_CASE("the estimate names the flag of the largest part", "[trainer][memory]") {
  TrainConfig r2d2;
  r2d2.algo = "r2d2";
  r2d2.model.lstm = true;
  r2d2.r2d2.replay_capacity = 1'000'000'000;
  CHECK_THAT(refusal(estimate_memory(resolved(r2d2), spec_of("cartpole"), {}), 64 * kGiB),
             Catch::StartsWith("--replay-capacity: the replay (1000000000 sequences"));

  TrainConfig many;
  many.actors = 1 << 20;
  many.envs_per_actor = 1 << 16;  // 2^36 envs: past what an int holds
  CHECK_THAT(refusal(estimate_memory(resolved(many), spec_of("minatar:breakout"), {}), 64 * kGiB),
             Catch::StartsWith("--actors: trajectories"));

  TrainConfig lstm;
  lstm.model.lstm = true;
  lstm.model.lstm_size = 65536;
  CHECK_THAT(refusal(estimate_memory(resolved(lstm), spec_of("cartpole"), {}), 8 * kGiB),
             Catch::StartsWith("--lstm-size: the model"));

  TrainConfig big_batch;
  big_batch.learner.batch_size = 65536;
  big_batch.unroll_length = 100000;
  CHECK_THAT(refusal(estimate_memory(resolved(big_batch), spec_of("synthetic:atari"), {}), 64 * kGiB),
             Catch::StartsWith("--batch-size: learner activations"));
}

TEST_CASE("ordinary runs fit with room to spare", "[trainer][memory]") {
  TrainConfig c;
  const MemoryEstimate cartpole = estimate_memory(resolved(c), spec_of("cartpole"), {});
  CHECK(cartpole.total() < 0.25 * kGiB);
  CHECK(refusal(cartpole, 1 * kGiB).empty());
  CHECK(refusal(cartpole, 0).empty());  // unknown: nothing to check against
  c.model.torso = "auto";
  const MemoryEstimate atari = estimate_memory(resolved(c), spec_of("synthetic:atari"), {});
  CHECK(atari.total() < 4 * kGiB);
  TrainConfig r2d2;
  r2d2.algo = "r2d2";
  r2d2.model.lstm = true;
  // GPU learners and inference: their copies do not count against host memory.
  const MemoryEstimate host = estimate_memory(resolved(r2d2), spec_of("minatar:breakout"), {1, 1});
  const MemoryEstimate gpu = estimate_memory(resolved(r2d2), spec_of("minatar:breakout"), {0, 0});
  CHECK(gpu.total() < host.total());
  CHECK(host.total() < 4 * kGiB);
}

TEST_CASE("a --hidden list of 300,000 widths is refused at once", "[trainer][memory]") {
  TrainConfig c;
  c.model.hidden.assign(300'000, 64);
  CHECK_THROWS_WITH(check_train_memory(c), "--hidden: 300000 layers; the MLP may have at most 64");
  c.model.hidden.assign(kMaxHiddenLayers, 8);
  CHECK_NOTHROW(check_train_memory(c));
}

TEST_CASE("available memory: MemAvailable, or a cgroup's headroom", "[trainer][memory]") {
  CHECK(meminfo_available("MemTotal: 100 kB\nMemFree: 10 kB\nMemAvailable: 50 kB\n") == 50 * 1024);
  CHECK(meminfo_available("MemTotal: 100 kB\n") == 0);
  CHECK(cgroup_headroom("max\n", "1000\n") == 0);                  // v2, no limit
  CHECK(cgroup_headroom("9223372036854771712\n", "1000\n") == 0);  // v1, no limit
  CHECK(cgroup_headroom("1000\n", "400\n") == 600);
  CHECK(cgroup_headroom("1000\n", "900\n", "anon 500\ninactive_file 300\n") == 400);  // cache is reclaimed first
  CHECK(cgroup_headroom("1000\n", "1200\n") == 1);
  CHECK(available_memory_bytes() > 0);
  CHECK(memory_text(3.5 * kGiB) == "3.5 GiB");
  CHECK(memory_text(20 * 1024 * 1024) == "20 MiB");
}
