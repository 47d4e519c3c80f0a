// The learner's thread in a training run (V-trace or R2D2): steps the learner
// until its input closes, keeps the latest step's statistics for the metrics,
// and saves a checkpoint between steps when the run monitor asks for one.
// A learner that throws logs why and marks the run failed.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include <spdlog/spdlog.h>

#include "seedrl/util/cpu_affinity.h"
#include "seedrl/util/error_text.h"

namespace seedrl {

// Learner: bool step(Stats&) (false once its input closed) and std::int64_t steps().
template <class Learner, class Stats>
class LearnerThread {
 public:
  // `cpus`: where the thread keeps to (trainer/learner_cores.h); empty: anywhere.
  LearnerThread(Learner& learner, std::function<void()> save, std::vector<int> cpus = {})
      : learner_(learner), save_(std::move(save)), cpus_(std::move(cpus)), steps_(learner.steps()) {}
  ~LearnerThread() { join(); }
  LearnerThread(const LearnerThread&) = delete;
  LearnerThread& operator=(const LearnerThread&) = delete;

  void start() {
    thread_ = std::thread([this] {
      if (!cpus_.empty()) set_thread_cpus(cpus_);
      try {
        Stats s;
        while (learner_.step(s)) {
          {
            std::lock_guard lock(mu_);
            last_ = s;
          }
          steps_.store(learner_.steps());
          if (checkpoint_due_.exchange(false)) save_();
        }
      } catch (const std::exception& e) {
        spdlog::error("learner failed: {}", error_text(e));
        failed_.store(true);
      }
    });
  }
  void join() {
    if (thread_.joinable()) thread_.join();
  }

  // The latest step's statistics; none before this process's first step
  // (a resumed R2D2 run refills its replay first).
  std::optional<Stats> last_stats() const {
    std::lock_guard lock(mu_);
    return last_;
  }
  const std::atomic<std::int64_t>& steps() const { return steps_; }
  std::atomic<bool>& checkpoint_due() { return checkpoint_due_; }
  bool failed() const { return failed_.load(); }

 private:
  Learner& learner_;
  std::function<void()> save_;
  std::vector<int> cpus_;
  mutable std::mutex mu_;
  std::optional<Stats> last_;
  std::atomic<std::int64_t> steps_;
  std::atomic<bool> checkpoint_due_{false}, failed_{false};
  std::thread thread_;
};

}  // namespace seedrl
