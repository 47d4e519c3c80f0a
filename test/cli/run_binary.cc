#include "run_binary.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace seedrl::test {

namespace {

RunResult run(const std::vector<std::string>& args, double signal_after_s, int sig, double timeout_s) {
  const std::string out_path = temp_dir("run_output") + "/out.txt";
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    // The test runner may have blocked signals; the child starts clean.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    std::vector<char*> argv;
    std::string bin = SEEDRL_BINARY;
    argv.push_back(bin.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  const auto t0 = std::chrono::steady_clock::now();
  bool signalled = false;
  int wstatus = 0;
  for (;;) {
    pid_t r = waitpid(pid, &wstatus, WNOHANG);
    if (r == pid) break;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!signalled && signal_after_s >= 0 && elapsed >= signal_after_s) {
      kill(pid, sig);
      signalled = true;
    }
    if (elapsed > timeout_s) {
      kill(pid, SIGKILL);
      waitpid(pid, &wstatus, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  RunResult res;
  res.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
  res.output = read_file(out_path);
  return res;
}

}  // namespace

RunResult run_seedrl(const std::vector<std::string>& args, double timeout_s) {
  return run(args, -1, 0, timeout_s);
}

RunResult run_seedrl_and_signal(const std::vector<std::string>& args, double stop_after_s, int signal,
                                double timeout_s) {
  return run(args, stop_after_s, signal, timeout_s);
}

std::string temp_dir(const std::string& name) {
  static_assert(sizeof(pid_t) <= 8);
  char templ[256];
  std::snprintf(templ, sizeof templ, "%s/seedrl_%s_XXXXXX", std::filesystem::temp_directory_path().c_str(),
                name.c_str());
  const char* d = mkdtemp(templ);
  return d ? std::string(d) : std::string();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace seedrl::test
