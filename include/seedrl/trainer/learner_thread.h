// The learner's thread in a training run: steps the algorithm's learner
// until its input closes, counts the steps and the time they took (for the
// bench), and saves a checkpoint between steps when the run monitor asks for
// one. A learner that throws logs why and marks the run failed.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

namespace seedrl {

class LearnerThread {
 public:
  // `step`: one update, false once the learner's input closed. `steps`: the
  // learner's step count (a resumed run starts above 0). `cpus`: where the
  // thread keeps to (trainer/learner_cpus.h); empty: anywhere.
  LearnerThread(std::function<bool()> step, std::function<std::int64_t()> steps, std::function<void()> save,
                std::vector<int> cpus = {});
  ~LearnerThread();
  LearnerThread(const LearnerThread&) = delete;
  LearnerThread& operator=(const LearnerThread&) = delete;

  void start();
  void join();

  const std::atomic<std::int64_t>& steps() const { return steps_; }
  // Steps this thread made and the nanoseconds they took, written by it alone.
  std::uint64_t stepped() const { return stepped_.load(std::memory_order_relaxed); }
  std::uint64_t step_ns() const { return step_ns_.load(std::memory_order_relaxed); }
  std::atomic<bool>& checkpoint_due() { return checkpoint_due_; }
  bool failed() const { return failed_.load(); }
  // The learner's input closed, or (learner processes) another rank stopped the run.
  bool finished() const { return finished_.load(); }

 private:
  void run();

  std::function<bool()> step_;
  std::function<std::int64_t()> learner_steps_;
  std::function<void()> save_;
  std::vector<int> cpus_;
  std::atomic<std::int64_t> steps_;
  std::atomic<std::uint64_t> stepped_{0}, step_ns_{0};
  std::atomic<bool> checkpoint_due_{false}, failed_{false}, finished_{false};
  std::thread thread_;
};

}  // namespace seedrl
