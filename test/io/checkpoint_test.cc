#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>

#include <torch/torch.h>

#include <torch/optim/adam.h>
#include <torch/optim/rmsprop.h>

#include "../cli/run_binary.h"
#include "../util/cartpole_spec.h"
#include "checkpoint_bytes.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/learner/vtrace_learner.h"
#include "seedrl/model/agent_net.h"

using namespace seedrl;
using seedrl::test::cartpole_spec;

namespace {
ModelConfig lstm_model() {
  ModelConfig mc;
  mc.lstm = true;
  mc.lstm_size = 8;
  mc.hidden = {16};
  return mc;
}

// One update of `model` on fixed inputs (no random numbers involved).
void train_step(AgentNet& model, torch::optim::Optimizer& opt, int salt) {
  const auto obs = torch::sin(torch::arange(60, torch::kFloat32) * 0.37f + static_cast<float>(salt)).reshape({3, 5, 4});
  const auto first = torch::zeros({3, 5}, torch::kUInt8);
  opt.zero_grad();
  const NetOutput out = model->forward(obs, first, model->initial_state(5));
  (out.value.square().sum() + out.policy.sum()).backward();
  opt.step();
}

void check_same_weights(const torch::nn::Module& a, const torch::nn::Module& b) {
  const auto pa = a.parameters(), pb = b.parameters();
  REQUIRE(pa.size() == pb.size());
  for (std::size_t i = 0; i < pa.size(); ++i) CHECK(torch::equal(pa[i], pb[i]));
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
  seedrl::CheckpointCounters counters{123, 45, 6789, 10};
  counters.target_reached = seedrl::TargetReached{18.5, 18.7, 100, 12.5, 40, 200};
  save_checkpoint(path, *a, *opt_a, counters, "{\"env\":\"cartpole\"}");
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));
  auto loaded = load_checkpoint(path, *b, opt_b.get());
  CHECK(loaded.counters.frames == 123);
  CHECK(loaded.counters.learner_steps == 45);
  CHECK(loaded.counters.learner_frames == 6789);
  CHECK(loaded.counters.episodes == 10);
  REQUIRE(loaded.counters.target_reached);
  CHECK(loaded.counters.target_reached->target == 18.5);
  CHECK(loaded.counters.target_reached->mean_return == 18.7);
  CHECK(loaded.counters.target_reached->frames == 100);
  CHECK(loaded.counters.target_reached->wall_seconds == 12.5);
  CHECK(loaded.counters.target_reached->learner_steps == 40);
  CHECK(loaded.counters.target_reached->episodes == 200);
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
  for (size_t i = 0; i < pa.size(); ++i) CHECK(torch::equal(pa[i], pb[i]));
}

TEST_CASE("checkpoints restore the model, extras and every optimizer state tensor bit for bit", "[io][checkpoint]") {
  using MakeOpt = std::function<std::unique_ptr<torch::optim::Optimizer>(std::vector<torch::Tensor>)>;
  MakeOpt make;
  SECTION("Adam (with AMSGrad's max_exp_avg_sq)") {
    make = [](std::vector<torch::Tensor> p) {
      return std::make_unique<torch::optim::Adam>(p, torch::optim::AdamOptions(1e-2).amsgrad(true));
    };
  }
  SECTION("RMSprop (with momentum_buffer and the centred grad_avg)") {
    make = [](std::vector<torch::Tensor> p) {
      return std::make_unique<torch::optim::RMSprop>(p,
                                                     torch::optim::RMSpropOptions(1e-2).momentum(0.9).centered(true));
    };
  }
  SECTION("the trainer's RMSprop") {
    OptimizerConfig oc;
    oc.name = "rmsprop";
    oc.rmsprop_momentum = 0.5;
    make = [oc](std::vector<torch::Tensor> p) { return make_optimizer(oc, std::move(p)); };
  }
  SECTION("the trainer's Adam") {
    make = [](std::vector<torch::Tensor> p) { return make_optimizer(OptimizerConfig{}, std::move(p)); };
  }
  AgentNet a(cartpole_spec(), lstm_model(), 2), b(cartpole_spec(), lstm_model(), 2);
  AgentNet target_a(cartpole_spec(), lstm_model(), 2), target_b(cartpole_spec(), lstm_model(), 2);
  auto opt_a = make(a->parameters());
  auto opt_b = make(b->parameters());
  train_step(a, *opt_a, 0);
  train_step(a, *opt_a, 1);
  opt_a->param_groups().front().options().set_lr(0.0123);  // as a decayed learning rate
  train_step(b, *opt_b, 5);                                // state of its own, to be replaced

  const std::string dir = seedrl::test::temp_dir("ckpt_bits");
  save_checkpoint(dir + "/a.pt", *a, *opt_a, {1, 2, 3, 4}, "{}", {{"target", target_a.ptr().get()}});
  load_checkpoint(dir + "/a.pt", *b, opt_b.get(), {{"target", target_b.ptr().get()}});
  // Everything a checkpoint holds came back: saved again, it is the same file.
  save_checkpoint(dir + "/b.pt", *b, *opt_b, {1, 2, 3, 4}, "{}", {{"target", target_b.ptr().get()}});
  CHECK(seedrl::test::file_bytes(dir + "/a.pt") == seedrl::test::file_bytes(dir + "/b.pt"));
  check_same_weights(*a, *b);
  check_same_weights(*target_a, *target_b);
  CHECK(opt_b->param_groups().front().options().get_lr() == 0.0123);
  // The next update gives the same weights as one without the save and load.
  train_step(a, *opt_a, 2);
  train_step(b, *opt_b, 2);
  check_same_weights(*a, *b);
}

TEST_CASE("a checkpoint of an optimizer that never stepped clears the state of the one it loads into",
          "[io][checkpoint]") {
  AgentNet a(cartpole_spec(), lstm_model(), 2), b(cartpole_spec(), lstm_model(), 2);
  auto opt_a = make_optimizer(OptimizerConfig{}, a->parameters());
  auto opt_b = make_optimizer(OptimizerConfig{}, b->parameters());
  train_step(b, *opt_b, 0);
  const std::string dir = seedrl::test::temp_dir("ckpt_fresh_opt");
  save_checkpoint(dir + "/a.pt", *a, *opt_a, {}, "{}");
  load_checkpoint(dir + "/a.pt", *b, opt_b.get());
  CHECK(opt_b->state().empty());
  train_step(a, *opt_a, 1);
  train_step(b, *opt_b, 1);
  check_same_weights(*a, *b);
}

TEST_CASE("a checkpoint that does not fit changes neither the model nor the optimizer", "[io][checkpoint]") {
  AgentNet a(cartpole_spec(), lstm_model(), 2), b(cartpole_spec(), lstm_model(), 2);
  OptimizerConfig rms;
  rms.name = "rmsprop";
  auto opt_a = make_optimizer(rms, a->parameters());
  auto opt_b = make_optimizer(OptimizerConfig{}, b->parameters());
  train_step(a, *opt_a, 0);
  train_step(b, *opt_b, 0);
  const std::string dir = seedrl::test::temp_dir("ckpt_no_fit");
  save_checkpoint(dir + "/a.pt", *a, *opt_a, {}, "{}");
  save_checkpoint(dir + "/b.pt", *b, *opt_b, {}, "{}");
  CHECK_THROWS_WITH(load_checkpoint(dir + "/a.pt", *b, opt_b.get()),
                    Catch::Contains(dir + "/a.pt") && Catch::Contains("rmsprop state; this run's optimizer is adam"));
  // An extra the file lacks, found only after the model would have loaded.
  AgentNet target(cartpole_spec(), lstm_model(), 2);
  CHECK_THROWS_WITH(load_checkpoint(dir + "/a.pt", *b, nullptr, {{"target", target.ptr().get()}}),
                    Catch::Contains("has no extra/target"));
  save_checkpoint(dir + "/b2.pt", *b, *opt_b, {}, "{}");
  CHECK(seedrl::test::file_bytes(dir + "/b.pt") == seedrl::test::file_bytes(dir + "/b2.pt"));
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
  SECTION("a checkpoint of an older seedrl (a LibTorch archive), never handed to LibTorch") {
    std::string old = "SEEDRLC1" + std::string(12, '\0') + "PK\x03\x04 whatever a LibTorch archive holds";
    const std::uint64_t len = old.size() - 20;
    std::memcpy(old.data() + 8, &len, 8);
    seedrl::test::reseal(old);
    seedrl::test::write_bytes(path, old);
    CHECK_THROWS_WITH(read_checkpoint_header(path), Catch::Contains(path) && Catch::Contains("older seedrl"));
    CHECK_THROWS_WITH(load_checkpoint(path, *a, nullptr), Catch::Contains(path) && Catch::Contains("older seedrl"));
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
