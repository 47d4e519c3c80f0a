// --learner-cpus: which CPUs the learner threads keep, and when auto
// reserves them.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "seedrl/env/registry.h"
#include "seedrl/trainer/learner_cpus.h"
#include "seedrl/trainer/placement.h"
#include "seedrl/trainer/train_config.h"
#include "seedrl/util/clock.h"
#include "seedrl/util/cpu_affinity.h"

using namespace seedrl;
using Cpus = std::vector<int>;

TEST_CASE("auto gives one learner the last of two CPUs when envs are cheap", "[trainer][learner_cpus]") {
  const LearnerCpus c = plan_learner_cpus("auto", {0, 1}, 1, 1, {30});
  REQUIRE(c.reserved());
  CHECK(c.learner == std::vector<Cpus>{{1}});
  CHECK(c.others == Cpus{0});
  CHECK(c.description ==
        "learner thread(s) on CPU 1, every other thread on CPU 0 (auto: 0 of 2 CPUs busy with other work)");
}

TEST_CASE("auto leaves the CPUs shared for expensive envs or too few CPUs", "[trainer][learner_cpus]") {
  const LearnerCpus mujoco = plan_learner_cpus("auto", {0, 1, 2, 3}, 1, 1, {56'000});
  CHECK_FALSE(mujoco.reserved());
  CHECK(mujoco.others.empty());
  CHECK_THAT(mujoco.description, Catch::Contains("an env step and its inference take 56 us"));
  // Two replicas on two CPUs would leave none for actors and inference.
  const LearnerCpus two = plan_learner_cpus("auto", {0, 1}, 2, 1, {30});
  CHECK_FALSE(two.reserved());
  CHECK_THAT(two.description, Catch::Contains("share all 2 CPUs"));
  // One CPU: nothing to split.
  CHECK_FALSE(plan_learner_cpus("auto", {0}, 1, 1, {30}).reserved());
  // Two torch threads each for two learners need 4 of 6 CPUs: more than half.
  CHECK_FALSE(plan_learner_cpus("auto", {0, 1, 2, 3, 4, 5}, 2, 2, {30}).reserved());
}

TEST_CASE("auto reserves for expensive envs when the learner's passes weigh as much", "[trainer][learner_cpus]") {
  // Pong-fast's estimates on two CPUs (bf16): four passes of 35 us per
  // sample's forward pass each (a backward pass as two), against an emulator
  // step and its inference of 273 us.
  const LearnerCpus pong = plan_learner_cpus("auto", {0, 1}, 1, 1, {240'000, 33'000, 423'000});
  REQUIRE(pong.reserved());
  CHECK(pong.learner == std::vector<Cpus>{{1}});
  CHECK(pong.description ==
        "learner thread(s) on CPU 1, every other thread on CPU 0 (auto: 0 of 2 CPUs busy with other work; an env "
        "step and its inference take 273 us, the learner's passes 423 us: the learner bounds the run)");
  // Breakout-fast's: two passes, half the learner's work, a dearer emulator.
  const LearnerCpus breakout = plan_learner_cpus("auto", {0, 1}, 1, 1, {280'000, 32'000, 212'000});
  CHECK_FALSE(breakout.reserved());
  CHECK_THAT(breakout.description,
             Catch::Contains("take 312 us, the learner's passes 212 us: the actors bound the run"));
  // Either side of the balance: the actors' 300 us.
  CHECK(plan_learner_cpus("auto", {0, 1}, 1, 1, {280'000, 20'000, 301'000}).reserved());
  CHECK_FALSE(plan_learner_cpus("auto", {0, 1}, 1, 1, {280'000, 20'000, 299'000}).reserved());
  // The balance is per CPU: on 8 CPUs the actors' 420 us spread over 7 is
  // 60 us each, so a learner of 61 us fills its one CPU enough.
  CHECK(plan_learner_cpus("auto", {0, 1, 2, 3, 4, 5, 6, 7}, 1, 1, {380'000, 40'000, 61'000}).reserved());
  CHECK_FALSE(plan_learner_cpus("auto", {0, 1, 2, 3, 4, 5, 6, 7}, 1, 1, {380'000, 40'000, 59'000}).reserved());
  // Two torch threads: the learner's work spread over its two CPUs, the
  // actors' over the other six (70 us each).
  CHECK_FALSE(plan_learner_cpus("auto", {0, 1, 2, 3, 4, 5, 6, 7}, 1, 2, {380'000, 40'000, 138'000}).reserved());
  CHECK(plan_learner_cpus("auto", {0, 1, 2, 3, 4, 5, 6, 7}, 1, 2, {380'000, 40'000, 142'000}).reserved());
  // Other work still has the last word.
  CHECK_FALSE(plan_learner_cpus("auto", {0, 1}, 1, 1, {230'000, 42'000, 504'000}, 1.0).reserved());
}

TEST_CASE("each learner thread gets its torch threads' worth of CPUs from the end", "[trainer][learner_cpus]") {
  const LearnerCpus c = plan_learner_cpus("auto", {0, 1, 2, 3, 4, 5, 6, 7}, 2, 2, {30});
  REQUIRE(c.reserved());
  CHECK(c.learner == std::vector<Cpus>{{4, 5}, {6, 7}});
  CHECK(c.others == Cpus{0, 1, 2, 3});
  // CPU ids as the process's mask gives them, gaps included.
  const LearnerCpus gaps = plan_learner_cpus("reserve", {2, 5, 7}, 1, 1, {0});
  CHECK(gaps.learner == std::vector<Cpus>{{7}});
  CHECK(gaps.others == Cpus{2, 5});
}

TEST_CASE("reserve ignores the env cost but needs a CPU left over", "[trainer][learner_cpus]") {
  const LearnerCpus c = plan_learner_cpus("reserve", {0, 1}, 1, 1, {200'000});
  CHECK(c.learner == std::vector<Cpus>{{1}});
  CHECK(c.others == Cpus{0});
  try {
    plan_learner_cpus("reserve", {0, 1}, 2, 1, {30});
    FAIL("two learner threads on two CPUs were reserved");
  } catch (const std::invalid_argument& e) {
    CHECK_THAT(e.what(), Catch::StartsWith("--learner-cpus reserve:"));
    CHECK_THAT(e.what(), Catch::Contains("2 CPU(s)"));
  }
}

TEST_CASE("share never reserves and a bad mode names the flag", "[trainer][learner_cpus]") {
  const LearnerCpus c = plan_learner_cpus("share", {0, 1, 2, 3, 4, 5, 6, 7}, 1, 1, {30});
  CHECK_FALSE(c.reserved());
  CHECK(c.others.empty());
  CHECK_THROWS_WITH(plan_learner_cpus("pin", {0, 1}, 1, 1, {30}), Catch::StartsWith("--learner-cpus:"));
}

TEST_CASE("auto shares for R2D2, SAC and GPU learners and times the env otherwise", "[trainer][learner_cpus]") {
  auto env = EnvRegistry::builtin().make("cartpole", {});
  TrainConfig config;  // --learner-cpus auto, V-trace
  Placement cpu, gpu;
  cpu.learner = {torch::Device("cpu")};
  gpu.learner = {torch::Device("cuda:0")};  // a device name only: no GPU needed
  const LearnerCpus on_gpu = learner_cpus_for(config, gpu, *env);
  CHECK_FALSE(on_gpu.reserved());
  CHECK_THAT(on_gpu.description, Catch::Contains("a GPU learner"));
  // An explicit reserve holds for a GPU learner too (where CPUs allow).
  config.learner_cpus = "reserve";
  if (thread_cpus().size() >= 2) CHECK(learner_cpus_for(config, gpu, *env).reserved());
  config.learner_cpus = "auto";
  for (const char* algo : {"r2d2", "sac"}) {
    config.algo = algo;
    const LearnerCpus paced = learner_cpus_for(config, cpu, *env);
    CHECK_FALSE(paced.reserved());
    CHECK_THAT(paced.description, Catch::Contains(std::string(algo) + ": replay paces the learner"));
  }
  config.algo = "vtrace";
  // CartPole is cheap: reserved wherever half the CPUs stay for the rest,
  // unless other work keeps them busy (as a loaded test machine may).
  const LearnerCpus cheap = learner_cpus_for(config, cpu, *env);
  if (thread_cpus().size() < 2)
    CHECK_FALSE(cheap.reserved());
  else
    CHECK((cheap.reserved() || cheap.description.find("busy with other work") != std::string::npos));
  CHECK_THAT(cheap.description, Catch::Contains("CPUs busy with other work") || Catch::Contains("fewer than half"));
}

namespace {
// Atari-shaped frames whose step burns 50 us of this thread's CPU, about an
// emulator step's cost.
class DearFrames : public Env {
 public:
  DearFrames() {
    spec_.name = "test:dear-frames";
    spec_.observation = ArraySpec{{84, 84, 4}, DType::kUInt8};
    spec_.action = ActionSpec::discrete(6);
  }
  const EnvSpec& spec() const override { return spec_; }
  void reset(std::optional<std::uint64_t>, void* obs) override { std::memset(obs, 0, spec_.observation.bytes()); }
  StepResult step(const Action&, void* obs) override {
    const double t0 = thread_cpu_ns();
    while (thread_cpu_ns() - t0 < 50'000) {
    }
    std::memset(obs, 1, spec_.observation.bytes());
    return {};
  }

 private:
  EnvSpec spec_;
};

// The number before `unit` that follows `after` in `text`.
double figure_after(const std::string& text, const std::string& after) {
  const auto at = text.find(after);
  return at == std::string::npos ? -1 : std::stod(text.substr(at + after.size()));
}
}  // namespace

TEST_CASE("auto times the model where env steps are expensive and says what it weighed", "[trainer][learner_cpus]") {
  DearFrames env;
  TrainConfig config;  // --learner-cpus auto, V-trace
  config.model.torso = "impala-shallow";
  config.learner.epochs = 4;
  Placement cpu;
  cpu.learner = {torch::Device("cpu")};
  const LearnerCpus plan = learner_cpus_for(config, cpu, env);
  if (thread_cpus().size() < 2) {
    CHECK_THAT(plan.description, Catch::Contains("fewer than half"));
    return;
  }
  // Either way (the balance depends on this CPU's convolutions), both sides' figures.
  const double actors = figure_after(plan.description, "an env step and its inference take ");
  const double learner = figure_after(plan.description, "the learner's passes ");
  INFO(plan.description);
  CHECK(actors >= 50);
  CHECK(learner > 0);
  // Reserved only where the learner bounds the run (a busy machine shares even then).
  const bool learner_bound = plan.description.find("the learner bounds the run") != std::string::npos;
  CHECK((learner_bound || plan.description.find("the actors bound the run") != std::string::npos));
  if (plan.reserved()) CHECK(learner_bound);
}

namespace {
// /proc/stat as the kernel writes it: an aggregate line, then one per CPU
// (user nice system idle iowait irq softirq steal guest guest_nice).
std::string proc_stat(const std::vector<std::array<std::uint64_t, 5>>& cpus) {
  std::string text = "cpu  1 2 3 4 5 6 7 8 0 0\n";
  for (std::size_t i = 0; i < cpus.size(); ++i) {
    const auto& c = cpus[i];  // user system idle iowait steal
    text += "cpu" + std::to_string(i) + " " + std::to_string(c[0]) + " 0 " + std::to_string(c[1]) + " " +
            std::to_string(c[2]) + " " + std::to_string(c[3]) + " 0 0 " + std::to_string(c[4]) + " 0 0\n";
  }
  return text + "intr 12345 0 0\nctxt 999\nbtime 1\nprocesses 10\n";
}
}  // namespace

TEST_CASE("CPU load is read from /proc/stat samples", "[trainer][learner_cpus]") {
  const auto before = parse_cpu_times(proc_stat({{100, 50, 1000, 10, 0}, {100, 50, 1000, 10, 0}}));
  REQUIRE(before.size() == 2);
  CHECK(before.at(1).idle == 1010);
  CHECK(before.at(1).total == 1160);
  // Over the next 100 ticks CPU 0 was all busy (80 user, 20 system), CPU 1
  // idle but for 10 ticks of steal and 15 of iowait (counted idle).
  const auto after = parse_cpu_times(proc_stat({{180, 70, 1000, 10, 0}, {100, 50, 1075, 25, 10}}));
  CHECK(busy_cpus(before, after, {0, 1}) == Approx(1.1));
  CHECK(busy_cpus(before, after, {1}) == Approx(0.1));
  CHECK(busy_cpus(before, after, {0, 1, 7}) == Approx(1.1));  // a CPU /proc/stat lacks counts as idle
  CHECK(busy_cpus(before, before, {0, 1}) == 0);              // no time passed
  CHECK(parse_cpu_times("garbage\ncpu\ncpux 1 2 3 4\n").empty());
}

TEST_CASE("auto shares when other work keeps the CPUs busy, and says so", "[trainer][learner_cpus]") {
  // Two CPUs, one learner thread: it needs both idle.
  const LearnerCpus busy = plan_learner_cpus("auto", {0, 1}, 1, 1, {30}, 1.7);
  CHECK_FALSE(busy.reserved());
  CHECK(busy.description == "learner threads share all 2 CPUs (auto: 2 of 2 CPUs busy with other work)");
  CHECK_FALSE(plan_learner_cpus("auto", {0, 1}, 1, 1, {30}, 0.6).reserved());
  const LearnerCpus quiet = plan_learner_cpus("auto", {0, 1}, 1, 1, {30}, 0.3);  // a little background noise
  CHECK(quiet.reserved());
  CHECK_THAT(quiet.description, Catch::EndsWith("(auto: 0 of 2 CPUs busy with other work)"));
  // Eight CPUs, three busy: five idle, of which one learner CPU is under half.
  CHECK(plan_learner_cpus("auto", {0, 1, 2, 3, 4, 5, 6, 7}, 1, 1, {30}, 3.2).reserved());
  // Two learners need four of the idle CPUs, with four idle left for the rest.
  CHECK_FALSE(plan_learner_cpus("auto", {0, 1, 2, 3, 4, 5, 6, 7}, 2, 2, {30}, 1.0).reserved());
  CHECK(plan_learner_cpus("auto", {0, 1, 2, 3, 4, 5, 6, 7}, 2, 2, {30}, 0.2).reserved());
  // reserve and share do not look at the load.
  CHECK(plan_learner_cpus("reserve", {0, 1}, 1, 1, {30}, 2.0).reserved());
  CHECK_FALSE(plan_learner_cpus("share", {0, 1, 2, 3}, 1, 1, {30}, 0).reserved());
}
