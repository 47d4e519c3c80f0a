#include "run_binary.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace seedrl::test {

namespace {

// Starts seedrl with `args`, its stdout and stderr going to `out_path`.
pid_t spawn(const std::vector<std::string>& args, const std::string& out_path) {
  const pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) {
    // A test killed by ctest's timeout takes its run along rather than leave
    // it busy beside the next tests.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
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
  return pid;
}

int exit_status(int wstatus) { return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus); }

// `ready` (or, without it, `signal_after_s` >= 0) says when the child gets `sig`.
RunResult run(const std::vector<std::string>& args, double signal_after_s,
              const std::function<bool(const std::string&, int)>& ready, int sig, double timeout_s) {
  const std::string out_path = temp_dir("run_output") + "/out.txt";
  const pid_t pid = spawn(args, out_path);
  const auto t0 = std::chrono::steady_clock::now();
  bool signalled = false;
  auto signalled_at = t0;
  int wstatus = 0;
  for (;;) {
    pid_t r = waitpid(pid, &wstatus, WNOHANG);
    if (r == pid) break;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!signalled && (ready ? ready(read_file(out_path), pid) : signal_after_s >= 0 && elapsed >= signal_after_s)) {
      kill(pid, sig);
      signalled = true;
      signalled_at = std::chrono::steady_clock::now();
    }
    if (elapsed > timeout_s) {
      kill(pid, SIGKILL);
      waitpid(pid, &wstatus, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  RunResult res;
  if (signalled)
    res.signal_to_exit_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - signalled_at).count();
  res.status = exit_status(wstatus);
  res.output = read_file(out_path);
  return res;
}

}  // namespace

RunResult run_seedrl(const std::vector<std::string>& args, double timeout_s) {
  return run(args, -1, nullptr, 0, timeout_s);
}

RunResult run_seedrl_and_signal(const std::vector<std::string>& args, double stop_after_s, int signal,
                                double timeout_s) {
  return run(args, stop_after_s, nullptr, signal, timeout_s);
}

RunResult run_seedrl_and_signal_when(const std::vector<std::string>& args,
                                     const std::function<bool(const std::string& output, int pid)>& ready, int signal,
                                     double timeout_s) {
  return run(args, -1, ready, signal, timeout_s);
}

std::vector<RunResult> run_seedrl_group(const std::vector<std::vector<std::string>>& args, const GroupSignals& signals,
                                        double timeout_s) {
  const std::size_t n = args.size();
  std::vector<std::string> paths(n);
  std::vector<pid_t> pids(n);
  for (std::size_t i = 0; i < n; ++i) {
    paths[i] = temp_dir("run_output") + "/out.txt";
    pids[i] = spawn(args[i], paths[i]);
  }
  std::vector<RunResult> res(n);
  std::vector<bool> done(n, false);
  std::size_t left = n;
  const auto t0 = std::chrono::steady_clock::now();
  while (left > 0) {
    for (std::size_t i = 0; i < n; ++i) {
      int wstatus = 0;
      if (!done[i] && waitpid(pids[i], &wstatus, WNOHANG) == pids[i]) {
        done[i] = true;
        --left;
        res[i].status = exit_status(wstatus);
      }
    }
    if (signals && left > 0) {
      std::vector<std::string> outputs;
      for (const auto& p : paths) outputs.push_back(read_file(p));
      if (const auto [v, sig] = signals(outputs, done); v >= 0 && v < static_cast<int>(n) && !done[v])
        kill(pids[v], sig);
    }
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > timeout_s) {
      for (std::size_t i = 0; i < n; ++i) {
        if (done[i]) continue;
        int wstatus = 0;
        kill(pids[i], SIGKILL);
        waitpid(pids[i], &wstatus, 0);
        res[i].status = exit_status(wstatus);
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  for (std::size_t i = 0; i < n; ++i) res[i].output = read_file(paths[i]);
  return res;
}

int thread_count(int pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string key;
  int threads = 0;
  while (status >> key)
    if (key == "Threads:") {
      status >> threads;
      break;
    }
  return threads;
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

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

std::string source_dir() { return SEEDRL_SOURCE_DIR; }

std::string dygraphs_js() {
  const std::string found = SEEDRL_DYGRAPHS_JS;
  return found.empty() ? "/usr/share/javascript/dygraphs/dygraph.min.js" : found;
}

}  // namespace seedrl::test
