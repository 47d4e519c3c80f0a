// Names the calling thread as `top -H`, `perf report --sort comm`, gdb and
// /proc/PID/task/TID/comm show it: "actor 3", "inference 0", "learner". Linux
// keeps 15 bytes; a longer name is cut there.
#pragma once

#include <string>

namespace seedrl {

void name_this_thread(const std::string& name);

// The calling thread's name ("" where it cannot be read).
std::string this_thread_name();

}  // namespace seedrl
