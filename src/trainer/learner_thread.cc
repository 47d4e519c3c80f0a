#include "seedrl/trainer/learner_thread.h"

#include <exception>
#include <utility>

#include <spdlog/spdlog.h>

#include "seedrl/util/clock.h"
#include "seedrl/util/cpu_affinity.h"
#include "seedrl/util/denormals.h"
#include "seedrl/util/error_text.h"
#include "seedrl/util/thread_name.h"

namespace seedrl {

LearnerThread::LearnerThread(std::function<bool()> step, std::function<std::int64_t()> steps,
                             std::function<void()> save, std::vector<int> cpus)
    : step_(std::move(step)),
      learner_steps_(std::move(steps)),
      save_(std::move(save)),
      cpus_(std::move(cpus)),
      steps_(learner_steps_()) {}

LearnerThread::~LearnerThread() { join(); }

void LearnerThread::start() {
  thread_ = std::thread([this] {
    name_this_thread("learner");
    flush_denormals_on_this_thread();
    run();
  });
}

void LearnerThread::join() {
  if (thread_.joinable()) thread_.join();
}

void LearnerThread::run() {
  if (!cpus_.empty()) set_thread_cpus(cpus_);
  try {
    std::uint64_t n = 0, ns = 0;
    for (;;) {
      const auto t0 = SteadyClock::now();
      if (!step_()) break;
      ns += ns_since(t0);
      step_ns_.store(ns, std::memory_order_relaxed);
      stepped_.store(++n, std::memory_order_relaxed);
      steps_.store(learner_steps_());
      if (checkpoint_due_.exchange(false)) save_();
    }
    finished_.store(true);
  } catch (const std::exception& e) {
    spdlog::error("learner failed: {}", error_text(e));
    failed_.store(true);
  }
}

}  // namespace seedrl
