// The stage between the trajectory store and a replay: a thread that takes
// each finished sequence from the store, gives it a priority (R2D2: its
// acting priority; a uniform replay: any constant) and inserts it. It waits on the replay's rate limiter, which
// back-pressures inference and the actors. It ends when the store or the replay closes; an error ends it, logged, and
// marks it failed.
#pragma once

#include <atomic>
#include <functional>
#include <thread>

namespace seedrl {
class TrajectoryStore;
struct UnrollBatch;
}  // namespace seedrl

namespace seedrl::r2d2 {

class Replay;

class ReplayInserter {
 public:
  // The priority a sequence enters with, from the store's batch of one.
  using Priority = std::function<double(const UnrollBatch&)>;

  ReplayInserter(TrajectoryStore& store, Replay& replay, Priority priority);
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
  Priority priority_;
  std::atomic<bool> failed_{false};
  std::thread thread_;
};

}  // namespace seedrl::r2d2
