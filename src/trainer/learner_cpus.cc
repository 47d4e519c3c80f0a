#include "seedrl/trainer/learner_cpus.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "seedrl/env/step_cost.h"
#include "seedrl/model/forward_cost.h"
#include "seedrl/model/policy_distribution.h"
#include "seedrl/trainer/placement.h"
#include "seedrl/trainer/train_config.h"
#include "seedrl/util/cpu_affinity.h"

namespace seedrl {

namespace {

std::string cpu_list(const std::vector<int>& cpus) {
  std::string s;
  for (int c : cpus) {
    if (!s.empty()) s += ',';
    s += std::to_string(c);
  }
  return s;
}

LearnerCpus shared_plan(std::size_t cpus, const std::string& why) {
  LearnerCpus plan;
  plan.description = fmt::format("learner threads share all {} CPUs ({})", cpus, why);
  return plan;
}

}  // namespace

std::map<int, CpuTimes> parse_cpu_times(const std::string& text) {
  std::map<int, CpuTimes> times;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    // "cpu3 user nice system idle iowait irq softirq steal guest guest_nice";
    // guest time is already counted in user.
    if (line.size() < 4 || line.compare(0, 3, "cpu") != 0 || !std::isdigit(static_cast<unsigned char>(line[3])))
      continue;
    std::istringstream fields(line.substr(3));
    int cpu = -1;
    fields >> cpu;
    std::uint64_t v[8] = {};
    int n = 0;
    while (n < 8 && fields >> v[n]) ++n;
    if (cpu < 0 || n < 4) continue;
    CpuTimes t;
    t.idle = v[3] + v[4];
    for (int i = 0; i < n; ++i) t.total += v[i];
    times[cpu] = t;
  }
  return times;
}

double busy_cpus(const std::map<int, CpuTimes>& before, const std::map<int, CpuTimes>& after,
                 const std::vector<int>& cpus) {
  double busy = 0;
  for (const int cpu : cpus) {
    const auto b = before.find(cpu), a = after.find(cpu);
    if (b == before.end() || a == after.end() || a->second.total <= b->second.total) continue;
    const double total = static_cast<double>(a->second.total - b->second.total);
    const double idle = a->second.idle >= b->second.idle ? static_cast<double>(a->second.idle - b->second.idle) : total;
    busy += std::clamp(1.0 - idle / total, 0.0, 1.0);
  }
  return busy;
}

LearnerCpus plan_learner_cpus(const std::string& mode, const std::vector<int>& cpus, int learner_threads,
                              int torch_threads, const StepCost& cost, double busy) {
  if (mode != "auto" && mode != "reserve" && mode != "share")
    throw std::invalid_argument("--learner-cpus: '" + mode + "' is not auto, reserve or share");
  const int n = static_cast<int>(cpus.size());
  const int want = std::max(1, learner_threads) * std::max(1, torch_threads);
  auto shared = [&](const std::string& why) { return shared_plan(cpus.size(), why); };
  if (mode == "share") return shared("--learner-cpus share");
  if (mode == "reserve" && want >= n)
    throw std::invalid_argument(
        fmt::format("--learner-cpus reserve: {} learner thread(s) x {} torch thread(s) "
                    "need more than the {} CPU(s) this process may use",
                    learner_threads, torch_threads, n));
  std::string why = "--learner-cpus reserve";
  if (mode == "auto") {
    if (2 * want > n) return shared(fmt::format("{} learner CPU(s) would leave fewer than half", want));
    std::string weighed;
    if (cost.env_ns >= kExpensiveEnvStepNs) {
      // Each side's CPU time per agent step per CPU it would have.
      const double learner_load = cost.learner_ns / want, actors_load = cost.actors_ns() / (n - want);
      weighed = fmt::format("an env step and its inference take {:.0f} us, the learner's passes {:.0f} us",
                            cost.actors_ns() / 1000, cost.learner_ns / 1000);
      if (learner_load < kReserveBalance * actors_load) return shared(weighed + ": the actors bound the run");
      weighed = "; " + weighed + ": the learner bounds the run";
    }
    const int busy_n = std::clamp(static_cast<int>(std::lround(busy)), 0, n);
    why = fmt::format("auto: {} of {} CPUs busy with other work{}", busy_n, n, weighed);
    if (2 * want > n - busy_n) return shared(why);
  }
  const int per = std::max(1, torch_threads);
  LearnerCpus plan;
  plan.others.assign(cpus.begin(), cpus.end() - want);
  for (int r = 0; r < std::max(1, learner_threads); ++r) {
    const auto first = cpus.end() - want + r * per;
    plan.learner.emplace_back(first, first + per);
  }
  std::string learner;
  for (const auto& l : plan.learner) {
    if (!learner.empty()) learner += " | ";
    learner += cpu_list(l);
  }
  plan.description = fmt::format("learner thread(s) on CPU {}, every other thread on CPU {} ({})", learner,
                                 cpu_list(plan.others), why);
  return plan;
}

namespace {

std::map<int, CpuTimes> read_cpu_times() {
  std::ifstream in("/proc/stat");
  std::stringstream text;
  text << in.rdbuf();
  return parse_cpu_times(text.str());
}

}  // namespace

LearnerCpus learner_cpus_for(const TrainConfig& config, const Placement& placement, Env& env) {
  const int learner_threads = static_cast<int>(placement.learner.size());
  const bool gpu = std::any_of(placement.learner.begin(), placement.learner.end(),
                               [](const torch::Device& d) { return !d.is_cpu(); });
  const bool replay_paced = config.algo == "r2d2" || config.algo == "sac";
  if (config.learner_cpus == "auto" && (replay_paced || gpu)) {
    // R2D2 and SAC: replay paces the learner (--replay-ratio), so a reserved
    // CPU only slows the actors: the learner makes the same updates either
    // way, and the actors lose a CPU (bench/RESULTS.md). GPU learners: not
    // measured yet.
    return shared_plan(thread_cpus().size(), gpu ? "a GPU learner" : config.algo + ": replay paces the learner");
  }
  const std::vector<int> cpus = thread_cpus();
  StepCost cost;
  if (config.learner_cpus == "auto") {
    cost.env_ns = measure_step_ns(env, config.seed);
    if (cost.env_ns >= kExpensiveEnvStepNs) {
      // Each side's forward pass timed at its own batch size (capped: past a
      // hundred samples the cost per sample barely falls), since a small
      // model's per-sample cost at inference's batches is many times its cost
      // at the learner's. A backward pass costs about two forward ones; the
      // decoupled clip adds one forward pass (the proximal policy) per batch.
      const auto& learner = config.learner;
      const int policy_size = make_policy_distribution(env.spec().action)->param_size();
      const int learner_batch = config.unroll_length * learner.batch_size / std::max(1, learner.minibatches);
      const auto forward_ns = [&](int batch) {
        return measure_forward_ns(env.spec(), config.model, policy_size, std::clamp(batch, 1, 128));
      };
      cost.inference_ns = forward_ns(config.inference_batch);
      cost.learner_ns = forward_ns(learner_batch) *
                        (3.0 * learner.epochs + (learner.loss.ppo_decoupled || learner.loss.fixed_targets ? 1.0 : 0.0));
    }
  }
  LearnerCpus plan = plan_learner_cpus(config.learner_cpus, cpus, learner_threads, config.torch_threads, cost);
  if (config.learner_cpus != "auto" || !plan.reserved()) return plan;
  // Other work on the machine: this process is between its start-up steps,
  // its threads not started yet, so the busy time is others'.
  const auto before = read_cpu_times();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const double busy = busy_cpus(before, read_cpu_times(), cpus);
  return plan_learner_cpus(config.learner_cpus, cpus, learner_threads, config.torch_threads, cost, busy);
}

}  // namespace seedrl
