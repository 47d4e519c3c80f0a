#include "seedrl/util/cpu_affinity.h"

#ifdef __linux__
#include <sched.h>
#endif

namespace seedrl {

std::vector<int> thread_cpus() {
  std::vector<int> cpus;
#ifdef __linux__
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
#endif
  return cpus;
}

bool set_thread_cpus(const std::vector<int>& cpus) {
#ifdef __linux__
  if (cpus.empty()) return false;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus) {
    if (c < 0 || c >= CPU_SETSIZE) return false;
    CPU_SET(c, &set);
  }
  // pid 0: the calling thread (affinity is per thread on Linux).
  return sched_setaffinity(0, sizeof(set), &set) == 0;
#else
  (void)cpus;
  return false;
#endif
}

ScopedThreadCpus::ScopedThreadCpus(const std::vector<int>& cpus) {
  if (cpus.empty()) return;
  old_ = thread_cpus();
  changed_ = !old_.empty() && set_thread_cpus(cpus);
}

ScopedThreadCpus::~ScopedThreadCpus() {
  if (changed_) set_thread_cpus(old_);
}

}  // namespace seedrl
