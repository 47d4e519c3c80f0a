#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <limits>

#include <torch/torch.h>

#include "../cli/run_binary.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/learner/vtrace_learner.h"
#include "seedrl/model/agent_net.h"

using namespace seedrl;

namespace {
EnvSpec cartpole_spec() {
  EnvSpec s;
  s.name = "cartpole";
  s.observation = ArraySpec{{4}, DType::kFloat32};
  s.action = ActionSpec::discrete(2);
  return s;
}
}  // namespace

TEST_CASE("checkpoints round-trip model, optimizer, counters and config", "[io][checkpoint]") {
  ModelConfig mc;
  mc.lstm = true;
  mc.lstm_size = 8;
  mc.hidden = {16};
  AgentNet a(cartpole_spec(), mc, 2), b(cartpole_spec(), mc, 2);
  OptimizerConfig oc;
  auto opt_a = make_optimizer(oc, a->parameters());
  auto opt_b = make_optimizer(oc, b->parameters());
  // One real step so the optimizer has state (Adam moments).
  auto obs = torch::randn({3, 5, 4});
  auto first = torch::zeros({3, 5}, torch::kUInt8);
  a->forward(obs, first, a->initial_state(5)).value.sum().backward();
  opt_a->step();

  const std::string dir = seedrl::test::temp_dir("ckpt");
  const std::string path = checkpoint_path(dir);
  save_checkpoint(path, *a, *opt_a, {123, 45, 6789, 10}, "{\"env\":\"cartpole\"}");
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));
  auto loaded = load_checkpoint(path, *b, opt_b.get());
  CHECK(loaded.counters.frames == 123);
  CHECK(loaded.counters.learner_steps == 45);
  CHECK(loaded.counters.learner_frames == 6789);
  CHECK(loaded.counters.episodes == 10);
  CHECK(loaded.config_json == "{\"env\":\"cartpole\"}");
  auto pa = a->parameters(), pb = b->parameters();
  for (size_t i = 0; i < pa.size(); ++i) CHECK(torch::equal(pa[i], pb[i]));
  // The optimizer state came back: the next step moves both models alike.
  for (auto* m : {&a, &b}) {
    (*m)->zero_grad();
    (*m)->forward(obs, first, (*m)->initial_state(5)).value.sum().backward();
  }
  opt_a->step();
  opt_b->step();
  pa = a->parameters();
  pb = b->parameters();
  for (size_t i = 0; i < pa.size(); ++i) CHECK(torch::allclose(pa[i], pb[i]));
}

TEST_CASE("damaged checkpoints give clear errors naming the file", "[io][checkpoint]") {
  AgentNet a(cartpole_spec(), ModelConfig{}, 2);
  auto opt = make_optimizer(OptimizerConfig{}, a->parameters());
  const std::string dir = seedrl::test::temp_dir("ckpt_bad");
  const std::string path = checkpoint_path(dir);
  save_checkpoint(path, *a, *opt, {}, "{}");
  const auto size = std::filesystem::file_size(path);

  SECTION("truncated") {
    std::filesystem::resize_file(path, size - 100);
    CHECK_THROWS_WITH(load_checkpoint(path, *a, nullptr), Catch::Contains("truncated") && Catch::Contains(path));
  }
  SECTION("a flipped byte") {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(size / 2));
    char c;
    f.read(&c, 1);
    f.seekp(static_cast<std::streamoff>(size / 2));
    c = static_cast<char>(c ^ 0x5A);
    f.write(&c, 1);
    f.close();
    CHECK_THROWS_WITH(load_checkpoint(path, *a, nullptr), Catch::Contains("corrupt"));
  }
  SECTION("a directory") {
    std::filesystem::remove(path);
    std::filesystem::create_directory(path);
    CHECK_THROWS_WITH(load_checkpoint(path, *a, nullptr), Catch::Contains(path) && Catch::Contains("is a directory"));
    CHECK_THROWS_WITH(read_checkpoint_header(path), Catch::Contains("is a directory"));
  }
  SECTION("not a checkpoint") {
    std::ofstream(path) << "hello";
    CHECK_THROWS_AS(read_checkpoint_header(path), CheckpointError);
  }
  SECTION("a different architecture") {
    ModelConfig big;
    big.hidden = {128, 128, 128};
    AgentNet other(cartpole_spec(), big, 2);
    CHECK_THROWS_AS(load_checkpoint(path, *other, nullptr), CheckpointError);
  }
  SECTION("the same layers over a wider observation") {
    // LibTorch's Module::load would take the 4-wide first layer as it is; the
    // forward pass would fail later, far from the cause.
    EnvSpec acrobot = cartpole_spec();
    acrobot.observation.shape = {6};
    AgentNet other(acrobot, ModelConfig{}, 2);
    CHECK_THROWS_WITH(load_checkpoint(path, *other, nullptr),
                      Catch::Contains(path) && Catch::Contains("[64, 4] there, [64, 6] here"));
  }
}

TEST_CASE("all_finite tells weights worth saving from NaN or infinite ones", "[io][checkpoint]") {
  AgentNet a(cartpole_spec(), ModelConfig{}, 2);
  CHECK(all_finite(*a));
  torch::NoGradGuard no_grad;
  auto p = a->parameters().back();
  p.view(-1)[0] = std::numeric_limits<float>::quiet_NaN();
  CHECK_FALSE(all_finite(*a));
  p.view(-1)[0] = -std::numeric_limits<float>::infinity();
  CHECK_FALSE(all_finite(*a));
  p.view(-1)[0] = 3.f;
  CHECK(all_finite(*a));
}
