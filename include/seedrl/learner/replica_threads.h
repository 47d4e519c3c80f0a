// The threads of data-parallel learner replicas in one process: rank 0 runs
// on the caller's thread, every other rank on a long-lived thread of its own.
// run(fn) runs fn(rank) on all ranks at once (so their c10d collectives can
// meet) and returns when all are done. One rank's exception does not leave
// the others waiting in a collective forever: c10d's timeout fails them too.
// SAC's updater runs its twin critics on two such ranks (no collectives).
//
// A waiting thread first spins briefly on the generation (or the done count)
// before it sleeps on the condition variable: SAC hands its phases to the
// second rank every few hundred microseconds, and waking a sleeping thread
// (on a VM, a halted virtual CPU) costs a good part of that. The spin is
// bounded, so an idle learner still sleeps.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace seedrl {

class ReplicaThreads {
 public:
  // cpus[r] (when given): the CPUs thread r >= 1 keeps to; rank 0 runs on the
  // caller of run(), which places itself.
  explicit ReplicaThreads(int ranks, std::vector<std::vector<int>> cpus = {});
  ~ReplicaThreads();  // joins the threads
  ReplicaThreads(const ReplicaThreads&) = delete;
  ReplicaThreads& operator=(const ReplicaThreads&) = delete;

  int size() const { return ranks_; }
  // Runs fn(rank) on every rank and waits; rethrows the lowest rank's error.
  void run(const std::function<void(int rank)>& fn);

 private:
  void loop(int rank);

  int ranks_;
  std::function<void(int)> job_;  // written before the generation bump, read after it
  std::mutex mu_;
  std::condition_variable work_cv_, done_cv_;
  // Written under mu_ (so that the condition variables' waits miss nothing),
  // read without it by the spinning waits.
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<int> done_{0};
  std::atomic<bool> stop_{false};
  std::vector<std::exception_ptr> errors_;
  std::vector<std::thread> threads_;
};

}  // namespace seedrl
