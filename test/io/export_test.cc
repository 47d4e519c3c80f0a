// `seedrl export`: PyTorch rebuilds the MLP and MinAtar policies from the
// exported dict (test/io/export_check.py) and computes what seedrl computes;
// bad input is one line naming the file or flag.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <torch/torch.h>
#include <nlohmann/json.hpp>

#include "../cli/one_line_error.h"
#include "../cli/run_binary.h"
#include "seedrl/env/registry.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/learner/vtrace_learner.h"
#include "seedrl/model/agent_net.h"
#include "seedrl/model/policy_distribution.h"
#include "seedrl/trainer/train_config.h"

using namespace seedrl;
using namespace seedrl::test;

namespace {

// A python3 that imports torch (Debian's python3-torch), or "" if none does.
std::string python_with_torch() {
  std::vector<std::string> candidates;
  if (const char* p = std::getenv("SEEDRL_PYTHON")) candidates.emplace_back(p);
  candidates.insert(candidates.end(), {"/usr/bin/python3", "python3"});
  for (const auto& py : candidates)
    if (std::system(("'" + py + "' -c 'import torch' > /dev/null 2>&1").c_str()) == 0) return py;
  return "";
}

// A checkpoint of a seeded network whose outputs are far from zero: the
// policy head starts at a hundredth of the usual scale, which would make a
// 1e-5 match say little.
std::string make_checkpoint(const std::string& dir, TrainConfig config, AgentNet& net) {
  const EnvSpec spec = EnvRegistry::builtin().make(config.env)->spec();
  torch::manual_seed(17);
  net = AgentNet(spec, config.model, make_policy_distribution(spec.action)->param_size());
  {
    torch::NoGradGuard no_grad;
    for (auto& p : net->parameters()) p.normal_(0, 0.3);
  }
  if (config.model.normalize_obs) net->update_obs_normalizer(torch::randn({1, 64, spec.observation.shape[0]}) * 3 + 1);
  const std::string path = dir + "/checkpoint.pt";
  CheckpointCounters counters;
  counters.frames = 1000;
  save_checkpoint(path, *net, *make_optimizer(config.learner.optimizer, net->parameters()), counters, to_json(config));
  return path;
}

void check_against_pytorch(const std::string& python, const std::string& name, TrainConfig config) {
  const std::string dir = temp_dir("export_" + name);
  AgentNet net{nullptr};
  const std::string checkpoint = make_checkpoint(dir, config, net);
  const std::string weights = dir + "/weights.pt";
  const RunResult r = run_seedrl({"export", "--checkpoint", checkpoint, "-o", weights});
  INFO(r.output);
  REQUIRE(r.status == 0);

  const EnvSpec spec = EnvRegistry::builtin().make(config.env)->spec();
  constexpr int kBatch = 6;
  std::vector<std::int64_t> shape{1, kBatch};
  shape.insert(shape.end(), spec.observation.shape.begin(), spec.observation.shape.end());
  torch::manual_seed(23);
  const bool image = spec.observation.dtype == DType::kUInt8;
  // MinAtar: 0/1 cells; vectors: values well away from the normaliser's moments.
  torch::Tensor obs = image ? torch::randint(0, 2, shape, torch::kUInt8) : torch::randn(shape) * 2;
  nlohmann::json inputs;
  inputs["obs"] = std::vector<double>();
  const torch::Tensor flat = obs.to(torch::kFloat64).flatten();
  for (std::int64_t i = 0; i < flat.numel(); ++i) inputs["obs"].push_back(flat[i].item<double>());
  std::ofstream(dir + "/inputs.json") << inputs.dump();

  const std::string script = seedrl::test::source_dir() + "/test/io/export_check.py";
  const std::string command = "'" + python + "' '" + script + "' '" + weights + "' '" + dir + "/inputs.json' '" + dir +
                              "/outputs.json' > '" + dir + "/python.txt' 2>&1";
  const int status = std::system(command.c_str());
  INFO(read_file(dir + "/python.txt"));
  REQUIRE(status == 0);
  const auto out = nlohmann::json::parse(read_file(dir + "/outputs.json"));

  torch::NoGradGuard no_grad;
  net->eval();
  const NetOutput ours = net->forward(obs, torch::zeros({1, kBatch}, torch::kUInt8), net->initial_state(kBatch));
  const torch::Tensor logits = ours.policy[0], value = ours.value[0];
  REQUIRE(out["logits"].size() == static_cast<std::size_t>(kBatch));
  REQUIRE(out["value"].size() == static_cast<std::size_t>(kBatch));
  double spread = 0;
  for (int b = 0; b < kBatch; ++b) {
    REQUIRE(out["logits"][b].size() == static_cast<std::size_t>(spec.action.num_actions));
    for (int a = 0; a < spec.action.num_actions; ++a) {
      const double theirs = out["logits"][b][a].get<double>(), mine = logits[b][a].item<double>();
      CHECK(std::abs(theirs - mine) <= 1e-5);
      spread = std::max(spread, std::abs(mine));
    }
    CHECK(std::abs(out["value"][b].get<double>() - value[b].item<double>()) <= 1e-5);
  }
  CHECK(spread > 0.1);  // outputs that could not match by being all near zero
}

}  // namespace

TEST_CASE("PyTorch rebuilds the exported MLP and MinAtar policies and matches their outputs", "[io][export]") {
  const std::string python = python_with_torch();
  if (python.empty()) {
    WARN("skipped: no python3 here imports torch (apt-get install python3-torch)");
    return;
  }
  TrainConfig mlp;
  mlp.env = "cartpole";
  mlp.model.normalize_obs = true;  // the moments travel in the dict
  check_against_pytorch(python, "mlp", mlp);
  TrainConfig minatar;
  minatar.env = "minatar:breakout";
  check_against_pytorch(python, "minatar", minatar);
}

TEST_CASE("export refuses a missing or corrupt checkpoint and an unwritable output in one line", "[io][export]") {
  const std::string dir = temp_dir("export_bad");
  check_one_line_error({"export", "--checkpoint", dir + "/none.pt", "-o", dir + "/w.pt"}, dir + "/none.pt");
  std::ofstream(dir + "/junk.pt") << "not a checkpoint at all";
  check_one_line_error({"export", "--checkpoint", dir + "/junk.pt", "-o", dir + "/w.pt"}, dir + "/junk.pt");
  CHECK_FALSE(std::filesystem::exists(dir + "/w.pt"));

  TrainConfig config;
  AgentNet net{nullptr};
  const std::string checkpoint = make_checkpoint(dir, config, net);
  const RunResult r =
      check_one_line_error({"export", "--checkpoint", checkpoint, "-o", dir + "/no/such/dir/w.pt"}, "-o");
  CHECK_THAT(r.output, Catch::Contains(dir + "/no/such/dir/w.pt"));
}
