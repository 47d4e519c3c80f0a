// Which CPUs a thread may run on (Linux sched_setaffinity). Used to keep a
// CPU for each learner thread: under the fair scheduler, thousands of
// actor threads woken together outweigh one learner thread even at nice 19
// (weight 15 each against its 1024), so the learner waits in the run queue
// while its update is the pipeline's bottleneck.
#pragma once

#include <vector>

namespace seedrl {

// The CPUs the calling thread may run on, ascending (empty where unknown).
std::vector<int> thread_cpus();
// Restricts the calling thread to `cpus`; false (and nothing changed) if the
// kernel refuses or `cpus` is empty. Threads it creates afterwards inherit it.
bool set_thread_cpus(const std::vector<int>& cpus);

// Restricts the calling thread for its lifetime and restores its old CPUs.
class ScopedThreadCpus {
 public:
  explicit ScopedThreadCpus(const std::vector<int>& cpus);  // empty: changes nothing
  ~ScopedThreadCpus();
  ScopedThreadCpus(const ScopedThreadCpus&) = delete;
  ScopedThreadCpus& operator=(const ScopedThreadCpus&) = delete;

 private:
  std::vector<int> old_;
  bool changed_ = false;
};

}  // namespace seedrl
