// Runs the built seedrl binary as a user would, capturing its exit status and
// output, with a hard timeout so a hang fails the test instead of CI. The
// timeout only catches hangs: on a loaded machine (ctest -j8 on 2 cores) a
// run can take many times longer than alone.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace seedrl::test {

struct RunResult {
  int status = -1;               // exit status, or 128 + signal
  std::string output;            // stdout and stderr together
  double signal_to_exit_s = -1;  // from the signal (if one was sent) to the exit
};

RunResult run_seedrl(const std::vector<std::string>& args, double timeout_s = 300);

// Starts seedrl in the background; `stop_after_s` later it receives `signal`.
RunResult run_seedrl_and_signal(const std::vector<std::string>& args, double stop_after_s, int signal,
                                double timeout_s = 300);

// Starts seedrl in the background; it receives `signal` as soon as
// `ready(its output so far, its pid)` holds: at a point in the run, not after
// a time that a loaded machine may not have reached that point in.
RunResult run_seedrl_and_signal_when(const std::vector<std::string>& args,
                                     const std::function<bool(const std::string& output, int pid)>& ready, int signal,
                                     double timeout_s = 300);

// Starts one seedrl per entry of `args` at once and waits for all. `signals`,
// called on every poll with every process's output so far and whether it
// has exited, returns {index, signal} for a process to signal now, or {-1, 0}.
using GroupSignals =
    std::function<std::pair<int, int>(const std::vector<std::string>& outputs, const std::vector<bool>& exited)>;
std::vector<RunResult> run_seedrl_group(const std::vector<std::vector<std::string>>& args,
                                        const GroupSignals& signals = {}, double timeout_s = 900);

// The number of threads process `pid` runs now (0 if it cannot be read).
int thread_count(int pid);

// A fresh empty directory under the system temp dir.
std::string temp_dir(const std::string& name);

std::string read_file(const std::string& path);

// `args` followed by `more`: a test's base command line with its own flags.
std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more);

// The source tree's root (configs/, docs/, test scripts): only run_binary.cc
// is compiled with its path, as with the binary's.
std::string source_dir();

// The dygraphs script this build inlines into report pages (libjs-dygraphs'
// dygraph.min.js where CMake found it; Debian's path when it found none).
std::string dygraphs_js();

}  // namespace seedrl::test
