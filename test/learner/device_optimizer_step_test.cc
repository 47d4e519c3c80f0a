// DeviceOptimizerStep against LibTorch's own Adam and RMSprop with
// clip_grad_norm_ (the step it claims to be), against a double-precision Adam
// loop, and inside a V-trace update; its state must stay LibTorch's, so that
// LibTorch's step can take over from it (as after a checkpoint); steps of one
// optimizer's disjoint groups run on two threads as its own step would.
#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <thread>

#include <torch/torch.h>

#include "seedrl/env/registry.h"
#include "seedrl/learner/device_optimizer_step.h"
#include "seedrl/learner/vtrace_learner.h"
#include "seedrl/model/policy_distribution.h"
#include "seedrl/trainer/train_config.h"

using namespace seedrl;

namespace {

std::vector<torch::Tensor> make_params() {
  torch::manual_seed(3);
  return {torch::randn({3, 4}).requires_grad_(), torch::randn({4}).requires_grad_(),
          torch::randn({2, 2, 2}).requires_grad_()};
}

// The same gradients for both sides: step k's gradient of parameter i.
void set_grads(std::vector<torch::Tensor>& params, int step) {
  torch::manual_seed(100 + step);
  for (auto& p : params) p.mutable_grad() = torch::randn_like(p) * (1.0 + step % 3);
}

double max_rel_diff(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    worst = std::max(worst, ((a[i] - b[i]).abs() / (b[i].abs() + 1e-6)).max().item<double>());
  return worst;
}

}  // namespace

TEST_CASE("DeviceOptimizerStep steps as LibTorch's optimizer with clip_grad_norm_ does", "[learner][optimizer]") {
  OptimizerConfig config;
  config.name = GENERATE(as<std::string>{}, "adam", "rmsprop");
  config.max_grad_norm = GENERATE(0.0, 2.5);  // 2.5 clips most of these gradients
  if (config.name == "rmsprop") config.rmsprop_momentum = GENERATE(0.0, 0.9);
  CAPTURE(config.name, config.max_grad_norm, config.rmsprop_momentum);

  auto ref = make_params();
  auto dev = make_params();
  auto ref_opt = make_optimizer(config, ref);
  auto dev_opt = make_optimizer(config, dev);
  DeviceOptimizerStep step(*dev_opt, config, dev);
  int clipped = 0;
  for (int k = 0; k < 25; ++k) {
    const double lr = 1e-2 * (1.0 - k / 30.0);  // decays, as the learner's does
    for (auto& g : ref_opt->param_groups()) g.options().set_lr(lr);
    set_grads(ref, k);
    set_grads(dev, k);
    double ref_norm = 0;
    if (config.max_grad_norm > 0) ref_norm = torch::nn::utils::clip_grad_norm_(ref, config.max_grad_norm);
    ref_opt->step();
    step.prepare(lr);
    const double dev_norm = step.step().item<double>();
    CHECK(dev_norm == Approx(ref_norm).epsilon(1e-6));
    // The gradients are left clipped, as clip_grad_norm_ leaves them.
    for (std::size_t i = 0; i < ref.size(); ++i) CHECK(torch::allclose(dev[i].grad(), ref[i].grad(), 1e-5, 1e-8));
    clipped += ref_norm > config.max_grad_norm && config.max_grad_norm > 0;
  }
  if (config.max_grad_norm > 0) CHECK(clipped > 10);
  CHECK(max_rel_diff(dev, ref) < 1e-6);

  // The state is LibTorch's: its own step carries on from it.
  for (auto* opt : {ref_opt.get(), dev_opt.get()})
    for (auto& g : opt->param_groups()) g.options().set_lr(1e-3);
  for (int k = 25; k < 30; ++k) {
    set_grads(ref, k);
    set_grads(dev, k);
    ref_opt->step();
    dev_opt->step();
  }
  CHECK(max_rel_diff(dev, ref) < 1e-6);
}

TEST_CASE("DeviceOptimizerStep's Adam matches a double-precision Adam", "[learner][optimizer]") {
  OptimizerConfig config;
  config.max_grad_norm = 0;
  config.adam_eps = 1e-8;
  auto params = make_params();
  // And a size that leaves a remainder after any vector width (the CPU step's loop).
  params.push_back(torch::randn({37}).requires_grad_());
  std::vector<torch::Tensor> p64, m, v;
  for (auto& p : params) {
    p64.push_back(p.detach().to(torch::kFloat64).clone());
    m.push_back(torch::zeros_like(p64.back()));
    v.push_back(torch::zeros_like(p64.back()));
  }
  auto opt = make_optimizer(config, params);
  DeviceOptimizerStep step(*opt, config, params);
  const double lr = 3e-3, b1 = config.adam_beta1, b2 = config.adam_beta2;
  for (int t = 1; t <= 40; ++t) {
    set_grads(params, t);
    step.prepare(lr);
    step.step();
    for (std::size_t i = 0; i < params.size(); ++i) {
      // Kingma & Ba (2015), algorithm 1, element by element in double.
      auto g = params[i].grad().to(torch::kFloat64).contiguous();
      auto* pd = p64[i].data_ptr<double>();
      auto* md = m[i].data_ptr<double>();
      auto* vd = v[i].data_ptr<double>();
      const auto* gd = g.data_ptr<double>();
      for (std::int64_t j = 0; j < g.numel(); ++j) {
        md[j] = b1 * md[j] + (1 - b1) * gd[j];
        vd[j] = b2 * vd[j] + (1 - b2) * gd[j] * gd[j];
        const double mhat = md[j] / (1 - std::pow(b1, t)), vhat = vd[j] / (1 - std::pow(b2, t));
        pd[j] -= lr * mhat / (std::sqrt(vhat) + config.adam_eps);
      }
    }
  }
  for (std::size_t i = 0; i < params.size(); ++i)
    CHECK((params[i].detach().to(torch::kFloat64) - p64[i]).abs().max().item<double>() < 1e-5);
}

// A CUDA graph of step() keeps working on the tensors it was captured on:
// prepare() must say when those were replaced (a checkpoint loaded), and the
// step must then carry on from the loaded state.
TEST_CASE("DeviceOptimizerStep says when the tensors it steps were replaced", "[learner][optimizer]") {
  OptimizerConfig config;
  config.name = GENERATE(as<std::string>{}, "adam", "rmsprop");
  if (config.name == "rmsprop") config.rmsprop_momentum = 0.9;
  CAPTURE(config.name);
  auto ref = make_params();
  auto dev = make_params();
  config.learning_rate = 1e-2;
  auto ref_opt = make_optimizer(config, ref);
  auto dev_opt = make_optimizer(config, dev);
  DeviceOptimizerStep step(*dev_opt, config, dev);
  auto both_step = [&](int k) {
    set_grads(ref, k);
    set_grads(dev, k);
    ref_opt->step();
    step.step();
  };
  CHECK(step.prepare(1e-2));  // the state is new
  both_step(0);
  CHECK_FALSE(step.prepare(1e-2));
  both_step(1);

  // Save and load the optimizer (as a checkpoint resume does): new state
  // tensors holding the same numbers.
  std::stringstream saved;
  torch::serialize::OutputArchive out;
  dev_opt->save(out);
  out.save_to(saved);
  torch::serialize::InputArchive in;
  in.load_from(saved);
  dev_opt->load(in);
  CHECK(step.prepare(1e-2));
  both_step(2);
  CHECK_FALSE(step.prepare(1e-2));
  both_step(3);
  CHECK(max_rel_diff(dev, ref) < 1e-6);

  // New parameter storage (a model loaded in place).
  {
    torch::NoGradGuard no_grad;
    dev[1].set_data(dev[1].clone());
    ref[1].set_data(ref[1].clone());
  }
  CHECK(step.prepare(1e-2));
  both_step(4);
  CHECK_FALSE(step.prepare(1e-2));
  both_step(5);
  CHECK(max_rel_diff(dev, ref) < 1e-6);
}

TEST_CASE("DeviceOptimizerStep refuses options it does not implement", "[learner][optimizer]") {
  OptimizerConfig config;
  auto params = make_params();
  torch::optim::Adam decayed(params, torch::optim::AdamOptions(1e-3).weight_decay(0.1));
  CHECK_THROWS_AS(DeviceOptimizerStep(decayed, config, params), std::invalid_argument);
  torch::optim::Adam ams(params, torch::optim::AdamOptions(1e-3).amsgrad(true));
  CHECK_THROWS_AS(DeviceOptimizerStep(ams, config, params), std::invalid_argument);
  config.name = "rmsprop";
  torch::optim::RMSprop centred(params, torch::optim::RMSpropOptions(1e-3).centered(true));
  CHECK_THROWS_AS(DeviceOptimizerStep(centred, config, params), std::invalid_argument);
  auto adam = make_optimizer(OptimizerConfig{}, params);
  CHECK_THROWS_AS(DeviceOptimizerStep(*adam, config, params), std::invalid_argument);  // rmsprop config, Adam object
}

TEST_CASE("DeviceOptimizerSteps of one Adam's groups step side by side as its own step does", "[learner][optimizer]") {
  // Groups {0, 1} and {2} of one Adam, each stepped by a DeviceOptimizerStep
  // of its own on a thread of its own (prepared on this one), against
  // LibTorch's step of a twin Adam over both groups.
  const auto two_groups = [](std::vector<torch::Tensor>& p) {
    std::vector<torch::optim::OptimizerParamGroup> groups;
    groups.emplace_back(std::vector<torch::Tensor>{p[0], p[1]}, std::make_unique<torch::optim::AdamOptions>(1e-2));
    groups.emplace_back(std::vector<torch::Tensor>{p[2]}, std::make_unique<torch::optim::AdamOptions>(1e-2));
    return std::make_unique<torch::optim::Adam>(std::move(groups), torch::optim::AdamOptions(1e-2));
  };
  auto ref = make_params();
  auto dev = make_params();
  auto ref_opt = two_groups(ref);
  auto dev_opt = two_groups(dev);
  OptimizerConfig config;
  config.max_grad_norm = 0;
  DeviceOptimizerStep first(*dev_opt, config, {dev[0], dev[1]});
  DeviceOptimizerStep second(*dev_opt, config, {dev[2]});
  for (int k = 0; k < 20; ++k) {
    set_grads(ref, k);
    set_grads(dev, k);
    ref_opt->step();
    first.prepare(1e-2);
    second.prepare(1e-2);
    std::thread other([&] { second.step(); });
    first.step();
    other.join();
  }
  CHECK(max_rel_diff(dev, ref) < 1e-6);
  CHECK(dev_opt->state().size() == 3);  // LibTorch's state, one entry per parameter
  // A step's parameters must lie in one group.
  CHECK_THROWS_AS(DeviceOptimizerStep(*dev_opt, config, {dev[1], dev[2]}), std::invalid_argument);
  CHECK_THROWS_AS(DeviceOptimizerStep(*dev_opt, config, {torch::zeros({2}, torch::requires_grad())}),
                  std::invalid_argument);
}

TEST_CASE("a V-trace update with the device optimizer step equals LibTorch's", "[learner][optimizer]") {
  TrainConfig tc;
  tc.env = "minatar:breakout";
  tc.model.torso = "minatar";
  tc.learner.optimizer.max_grad_norm = 0.5;
  tc.learner.epochs = 2;
  const EnvSpec spec = EnvRegistry::builtin().make(tc.env, {})->spec();
  auto dist = make_policy_distribution(spec.action);
  auto make = [&] {
    torch::manual_seed(5);
    return AgentNet(spec, tc.model, dist->param_size());
  };
  AgentNet a = make(), b = make();
  auto opt_a = make_optimizer(tc.learner.optimizer, a->parameters());
  auto opt_b = make_optimizer(tc.learner.optimizer, b->parameters());
  DeviceOptimizerStep device_step(*opt_b, tc.learner.optimizer, b->parameters());

  const std::int64_t L = 9, B = 6;
  torch::manual_seed(8);
  UnrollBatch batch;
  batch.obs = torch::randint(0, 2, {L, B, 10, 10, 4}, torch::kUInt8);
  batch.actions = torch::randint(0, spec.action.num_actions, {L, B, 1}).to(torch::kFloat32);
  batch.policy = torch::randn({L, B, dist->param_size()});
  batch.rewards = torch::randn({L, B});
  batch.flags = torch::zeros({L, B}, torch::kUInt8);
  for (int u = 0; u < 4; ++u) {
    VTraceLosses la, lb;
    const double lr = 1e-3 * (4 - u);
    const double na = vtrace_update(a, *dist, *opt_a, batch, tc.learner, torch::kCPU, lr, la).item<double>();
    const double nb =
        vtrace_update(b, *dist, *opt_b, batch, tc.learner, torch::kCPU, lr, lb, 0, {}, &device_step).item<double>();
    CHECK(nb == Approx(na).epsilon(1e-5));
    // The weights of the two differ by rounding from the second pass on
    // (below), and this total of O(0.1-1) terms passes near zero here
    // (-0.03): relative to the terms, not to the total.
    CHECK(lb.total.item<double>() == Approx(la.total.item<double>()).epsilon(1e-5).margin(1e-5));
  }
  // On the CPU the step is a fused loop (learner/fused_adam.h): the same
  // arithmetic as LibTorch's ops, rounded in another order. Adam divides by
  // the root of each weight's squared-gradient average, so for a weight whose
  // gradients stay near zero a rounding difference becomes a visible one in
  // its update; per tensor, the two stay within a thousandth of how far the
  // eight steps moved it (a wrong step differs by a good part of its move).
  AgentNet fresh = make();
  const auto pa = a->parameters(), pb = b->parameters(), pf = fresh->parameters();
  for (std::size_t i = 0; i < pa.size(); ++i) {
    const double moved = (pa[i] - pf[i]).abs().max().item<double>();
    CAPTURE(i, moved);
    CHECK(moved > 1e-3);  // the comparison is not of two untouched models
    CHECK((pa[i] - pb[i]).abs().max().item<double>() < 1e-3 * moved);
  }
}
