// The Pipeline with an algorithm of the test's own: a third algorithm is a
// set of hooks, the pipeline calls them in dependency order, stops once, and
// stops every thread when an exception leaves after start.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "../util/wait_until.h"
#include "seedrl/inference/actor_critic_step.h"
#include "seedrl/inference/inference_fleet.h"
#include "seedrl/inference/inference_server.h"
#include "seedrl/model/agent_net.h"
#include "seedrl/model/policy_distribution.h"
#include "seedrl/publisher/param_publisher.h"
#include "seedrl/trainer/pipeline.h"
#include "seedrl/trainer/vtrace_algorithm.h"

using namespace seedrl;

namespace {

TrainConfig small_cartpole() {
  TrainConfig c;
  c.env = "cartpole";
  c.actors = 2;
  c.envs_per_actor = 2;
  c.unroll_length = 5;
  c.learner.batch_size = 2;
  c.learner.max_frames = std::int64_t{1} << 40;
  c.model.hidden = {8};
  c.torch_threads = 1;
  c.learner_cpus = "share";
  resolve_defaults(c);
  return c;
}

// A policy step whose select() throws from its `fail_at`-th batch on, as a
// forward that runs out of device memory would; else ActorCriticStep's.
class FailingStep final : public PolicyStep {
 public:
  FailingStep(std::unique_ptr<PolicyStep> inner, int fail_at) : inner_(std::move(inner)), fail_at_(fail_at) {}
  PolicyModel make_model(torch::Device device) const override { return inner_->make_model(device); }
  CoreState initial_state(int num_slots, torch::Device device) const override {
    return inner_->initial_state(num_slots, device);
  }
  torch::Tensor select(const torch::Tensor& output, const torch::Tensor& slots) override {
    if (++batches_ >= fail_at_) throw std::runtime_error("out of device memory (injected)");
    return inner_->select(output, slots);
  }
  int record_size() const override { return inner_->record_size(); }
  void record(const torch::Tensor& output, std::span<const torch::Tensor> inputs, torch::Tensor rows) const override {
    inner_->record(output, inputs, rows);
  }

 private:
  std::unique_ptr<PolicyStep> inner_;
  int fail_at_;
  int batches_ = 0;
};

// Acts with a fixed random policy and "learns" by counting the unrolls it is
// handed; records which hook was called, in order. `fail_inference_at` > 0:
// inference throws from that batch on.
class CountingAlgorithm final : public Algorithm {
 public:
  explicit CountingAlgorithm(const TrainConfig& config, int fail_inference_at = 0)
      : config_(config), fail_inference_at_(fail_inference_at) {}
  std::string name() const override { return "counting"; }
  UnrollLayout unroll_layout(const EnvSpec& spec) const override { return vtrace_unroll_layout(config_, spec); }
  int store_batch_size() const override { return 2; }
  void build(const PipelineContext& ctx) override {
    note("build");
    spec_ = ctx.spec;
    store_ = &ctx.store;
    publisher_ = &ctx.publisher;
    policy_size_ = make_policy_distribution(ctx.spec.action)->param_size();
    net_ = make_net();
  }
  CheckpointCounters resume(bool) override { return {}; }
  void save(const CheckpointCounters&) override {}
  std::string checkpoint_path() const override { return ""; }
  void publish() override { publisher_->publish(*net_, 0); }
  std::string describe() const override { return "counting"; }
  std::unique_ptr<DeviceInference> make_inference(RequestBatcher& batcher, torch::Device device,
                                                  int num_slots) override {
    note("make_inference");
    std::unique_ptr<PolicyStep> step =
        std::make_unique<ActorCriticStep>([this] { return make_net(); }, spec_.action, num_slots);
    if (fail_inference_at_ > 0) step = std::make_unique<FailingStep>(std::move(step), fail_inference_at_);
    return std::make_unique<InferenceServer>(batcher, store_, *publisher_, std::move(step), num_slots, 1, device);
  }
  void release_slot(int, TrajectoryStore&, InferenceFleet&) override { note("release_slot"); }
  void start_stages() override { note("start_stages"); }
  void request_stop_stages() override { note("request_stop_stages"); }
  void join_stages() override { note("join_stages"); }
  bool learner_step() override {
    UnrollBatch batch;
    if (!store_->next_batch(2, batch)) {
      note("input closed");
      return false;
    }
    {
      std::lock_guard lock(mu_);
      if (unrolls_ == 0) hooks_.push_back("first step");
      shapes_.push_back(batch.obs.sizes().vec());
    }
    unrolls_ += 2;
    steps_ += 1;
    return true;
  }
  std::int64_t learner_steps() const override { return steps_.load(); }
  void add_scalars(Scalars& out) override { out["unrolls"] = static_cast<double>(unrolls_.load()); }

  std::int64_t unrolls() const { return unrolls_.load(); }
  std::vector<std::string> hooks() const {
    std::lock_guard lock(mu_);
    return hooks_;
  }
  std::vector<std::vector<std::int64_t>> shapes() const {
    std::lock_guard lock(mu_);
    return shapes_;
  }

 private:
  AgentNet make_net() const { return AgentNet(spec_, config_.model, policy_size_); }
  void note(const std::string& hook) {
    std::lock_guard lock(mu_);
    if (hooks_.empty() || hooks_.back() != hook) hooks_.push_back(hook);
  }

  TrainConfig config_;
  int fail_inference_at_ = 0;
  EnvSpec spec_;
  int policy_size_ = 0;
  TrajectoryStore* store_ = nullptr;
  ParamPublisher* publisher_ = nullptr;
  AgentNet net_{nullptr};
  mutable std::mutex mu_;
  std::vector<std::string> hooks_;
  std::vector<std::vector<std::int64_t>> shapes_;
  std::atomic<std::int64_t> unrolls_{0}, steps_{0};
};

}  // namespace

TEST_CASE("a new algorithm plugs into the Pipeline through its hooks alone", "[trainer][pipeline]") {
  const TrainConfig c = small_cartpole();
  CountingAlgorithm algo(c);
  std::int64_t frames = 0;
  {
    Pipeline pipeline(c, algo);
    algo.publish();
    pipeline.start();
    REQUIRE(test::wait_until([&] { return algo.unrolls() >= 8 || pipeline.failed(); }));
    REQUIRE_FALSE(pipeline.failed());
    Scalars s;
    pipeline.add_scalars(s);
    CHECK(s.at("unrolls") >= 8);
    CHECK(s.count("queue_size") == 1);
    pipeline.stop();
    pipeline.stop();  // once only
    frames = pipeline.frames().load();
    CHECK(pipeline.learner_thread().stepped() >= 4);
  }
  // Every batch held 2 unrolls of unroll_length + 1 CartPole observations.
  for (const auto& shape : algo.shapes()) CHECK(shape == std::vector<std::int64_t>{6, 2, 4});
  CHECK(frames >= 8 * 5);
  // One inference server per device, built after the algorithm; its stages
  // start before its learner steps and stop (then join) after the actors
  // stopped; the learner's input closes last.
  CHECK(algo.hooks() == std::vector<std::string>{"build", "make_inference", "start_stages", "first step",
                                                 "request_stop_stages", "input closed", "join_stages"});
}

// The names of this process's threads, as /proc shows them.
std::vector<std::string> thread_names() {
  std::vector<std::string> names;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream in(task.path() / "comm");
    std::string name;
    std::getline(in, name);
    names.push_back(name);
  }
  return names;
}

TEST_CASE("a running Pipeline's threads carry their stage's name", "[trainer][pipeline]") {
  const TrainConfig c = small_cartpole();
  CountingAlgorithm algo(c);
  Pipeline pipeline(c, algo);
  algo.publish();
  pipeline.start();
  // Each thread names itself once it runs, so wait for all of them rather
  // than for some unrolls: one actor can fill both before the other starts.
  const std::vector<std::string> expected{"actor 0", "actor 1", "inference 0", "learner"};
  std::vector<std::string> names;
  const auto all_named = [&] {
    names = thread_names();
    return std::all_of(expected.begin(), expected.end(),
                       [&](const std::string& name) { return std::count(names.begin(), names.end(), name) == 1; });
  };
  test::wait_until([&] { return all_named() || pipeline.failed(); });
  CHECK_FALSE(pipeline.failed());
  pipeline.stop();
  INFO(Catch::Detail::stringify(names));
  for (const auto& name : expected) CHECK(std::count(names.begin(), names.end(), name) == 1);
}

TEST_CASE("a Pipeline an exception leaves after start stops every thread on its way out", "[trainer][pipeline]") {
  const TrainConfig c = small_cartpole();
  CountingAlgorithm algo(c);
  try {
    Pipeline pipeline(c, algo);
    algo.publish();
    pipeline.start();
    REQUIRE(test::wait_until([&] { return algo.unrolls() >= 2 || pipeline.failed(); }));
    throw std::runtime_error("cannot write metrics.jsonl");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) == "cannot write metrics.jsonl");
  }
  // Reaching here at all means every thread joined; the learner's input closed.
  const auto hooks = algo.hooks();
  REQUIRE(hooks.size() >= 2);
  CHECK(hooks[hooks.size() - 2] == "input closed");
  CHECK(hooks.back() == "join_stages");
}

TEST_CASE("an inference thread that fails mid-batch fails the Pipeline, whose stop joins every thread",
          "[trainer][pipeline]") {
  // Before: the failed batch's actors waited for an answer for ever, the
  // learner for unrolls, and stop() for the actors.
  const TrainConfig c = small_cartpole();
  CountingAlgorithm algo(c, 30);
  Pipeline pipeline(c, algo);
  algo.publish();
  pipeline.start();
  REQUIRE(test::wait_until([&] { return pipeline.failed(); }));
  pipeline.stop();  // returns: every thread joined
  CHECK(algo.hooks().back() == "join_stages");
}

TEST_CASE("a Pipeline built and never started stops without waiting on anything", "[trainer][pipeline]") {
  const TrainConfig c = small_cartpole();
  VTraceAlgorithm vtrace(c);
  {
    Pipeline pipeline(c, vtrace);
    CHECK(pipeline.train_envs() == 4);
    CHECK(pipeline.spec().name == "cartpole");
  }
  SUCCEED("destroyed without a start");
}
