#include "seedrl/util/thread_name.h"

#include <pthread.h>

namespace seedrl {

void name_this_thread(const std::string& name) {
  pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());  // a name Linux refuses leaves the old one
}

std::string this_thread_name() {
  char buf[16] = {};
  if (pthread_getname_np(pthread_self(), buf, sizeof buf) != 0) return {};
  return buf;
}

}  // namespace seedrl
