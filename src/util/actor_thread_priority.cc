#include "seedrl/util/actor_thread_priority.h"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace seedrl {

void lower_actor_thread_priority(int nice_increment) {
#ifdef __linux__
  if (nice_increment <= 0) return;
  sched_param param{};
  param.sched_priority = 0;
  pthread_setschedparam(pthread_self(), SCHED_BATCH, &param);
  // On Linux the nice value is per thread: PRIO_PROCESS with a thread id.
  const auto tid = static_cast<id_t>(syscall(SYS_gettid));
  const int current = getpriority(PRIO_PROCESS, tid);
  setpriority(PRIO_PROCESS, tid, current + nice_increment);  // the kernel caps it at 19
#else
  (void)nice_increment;
#endif
}

}  // namespace seedrl
