// The stop of a training run's threads, in dependency order, run exactly
// once: by now() at the run's normal end, or by the destructor when an
// exception leaves the trainer anywhere between the threads' start and that
// end (a metrics file that cannot be written, a thread that cannot start).
// Without it such an exception would unwind into ~LearnerThread, which joins
// a learner still waiting on a store that nobody closes: a silent hang.
// Shared by the V-trace and R2D2 trainers.
#pragma once

#include <functional>

namespace seedrl {

class RunShutdown {
 public:
  // `stop_in_order` asks every producer to stop, closes the queues (waking
  // whoever waits on them) and joins every thread. Declare the guard after
  // everything it stops, so that it is destroyed first.
  explicit RunShutdown(std::function<void()> stop_in_order);
  // Stops the run if now() has not; never throws (an error is logged).
  ~RunShutdown();
  RunShutdown(const RunShutdown&) = delete;
  RunShutdown& operator=(const RunShutdown&) = delete;

  // Stops the run now; later calls do nothing.
  void now();

 private:
  std::function<void()> stop_;
  bool done_ = false;
};

}  // namespace seedrl
