// R2D2's stage between the trajectory store and the replay: a thread that
// takes each finished sequence from the store, computes its acting priority
// and inserts it. It waits on the replay's rate limiter, which back-pressures
// inference and the actors. It ends when the store or the replay closes; an
// error ends it, logged, and marks it failed.
#pragma once

#include <atomic>
#include <thread>

#include "seedrl/learner/learner_config.h"
#include "seedrl/learner/r2d2/r2d2_config.h"

namespace seedrl {
class TrajectoryStore;
}

namespace seedrl::r2d2 {

class Replay;

class ReplayInserter {
 public:
  ReplayInserter(TrajectoryStore& store, Replay& replay, const R2D2Config& r2d2, const VTraceLossConfig& loss);
  ~ReplayInserter();
  ReplayInserter(const ReplayInserter&) = delete;
  ReplayInserter& operator=(const ReplayInserter&) = delete;

  void start();
  void join();
  bool failed() const { return failed_.load(); }

 private:
  void run();

  TrajectoryStore& store_;
  Replay& replay_;
  R2D2Config r2d2_;
  VTraceLossConfig loss_;
  std::atomic<bool> failed_{false};
  std::thread thread_;
};

}  // namespace seedrl::r2d2
