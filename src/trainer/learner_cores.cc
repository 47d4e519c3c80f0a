#include "seedrl/trainer/learner_cores.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "seedrl/env/step_cost.h"
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

LearnerCores shared_plan(std::size_t cpus, const std::string& why) {
  LearnerCores plan;
  plan.description = fmt::format("learner threads share all {} CPUs ({})", cpus, why);
  return plan;
}

}  // namespace

LearnerCores plan_learner_cores(const std::string& mode, const std::vector<int>& cpus, int learner_threads,
                                int torch_threads, double env_step_ns) {
  if (mode != "auto" && mode != "reserve" && mode != "share")
    throw std::invalid_argument("--learner-cores: '" + mode + "' is not auto, reserve or share");
  const int n = static_cast<int>(cpus.size());
  const int want = std::max(1, learner_threads) * std::max(1, torch_threads);
  auto shared = [&](const std::string& why) { return shared_plan(cpus.size(), why); };
  if (mode == "share") return shared("--learner-cores share");
  if (mode == "reserve" && want >= n)
    throw std::invalid_argument(fmt::format("--learner-cores reserve: {} learner thread(s) x {} torch thread(s) "
                                            "need more than the {} CPU(s) this process may use",
                                            learner_threads, torch_threads, n));
  if (mode == "auto") {
    if (2 * want > n) return shared(fmt::format("{} learner CPU(s) would leave fewer than half", want));
    if (env_step_ns >= kExpensiveEnvStepNs)
      return shared(fmt::format("an env step takes {:.0f} us: the actors bound the run", env_step_ns / 1000));
  }
  const int per = std::max(1, torch_threads);
  LearnerCores plan;
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
  plan.description = fmt::format("learner thread(s) on CPU {}, every other thread on CPU {}", learner,
                                 cpu_list(plan.others));
  return plan;
}

namespace {

LearnerCores plan_for(const TrainConfig& config, const Placement& placement, Env& env) {
  const int learner_threads = static_cast<int>(placement.learner.size());
  const bool gpu = std::any_of(placement.learner.begin(), placement.learner.end(),
                               [](const torch::Device& d) { return !d.is_cpu(); });
  if (config.learner_cores == "auto" && (config.algo == "r2d2" || gpu)) {
    // R2D2: replay paces the learner (--replay-ratio), so a reserved CPU only
    // slowed the actors (600k CartPole frames in 9.6 s reserved, 6.9 s
    // shared, for the same 242 updates). GPU learners: not measured yet.
    return shared_plan(thread_cpus().size(), gpu ? "a GPU learner" : "r2d2: replay paces the learner");
  }
  const double step_ns = config.learner_cores == "auto" ? measure_step_ns(env, config.seed) : 0;
  return plan_learner_cores(config.learner_cores, thread_cpus(), learner_threads, config.torch_threads, step_ns);
}

}  // namespace

LearnerCores learner_cores_for(const TrainConfig& config, const Placement& placement, Env& env) {
  return plan_for(config, placement, env);
}

}  // namespace seedrl
