// Runs the built seedrl binary as a user would, capturing its exit status and
// output, with a hard timeout so a hang fails the test instead of CI.
#pragma once

#include <string>
#include <vector>

namespace seedrl::test {

struct RunResult {
  int status = -1;     // exit status, or 128 + signal
  std::string output;  // stdout and stderr together
};

RunResult run_seedrl(const std::vector<std::string>& args, double timeout_s = 120);

// Starts seedrl in the background; `stop_after_s` later it receives `signal`.
RunResult run_seedrl_and_signal(const std::vector<std::string>& args, double stop_after_s, int signal,
                                double timeout_s = 120);

// A fresh empty directory under the system temp dir.
std::string temp_dir(const std::string& name);

std::string read_file(const std::string& path);

}  // namespace seedrl::test
