// MuJoCo's fatal errors end the process with one line instead of waiting on
// stdin for Enter, and its warnings go to stderr, a bounded number of them,
// instead of MUJOCO_LOG.TXT. Each case runs MuJoCo in a child process.
#include <catch2/catch.hpp>

#include "seedrl/env/mujoco/mujoco_messages.h"

#if SEEDRL_HAVE_MUJOCO

#include <mujoco/mujoco.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>

namespace {

std::string temp_dir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "seedrl_mujoco_messages_XXXXXX").string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  return pattern;
}

struct Child {
  int status = -1;  // exit status, 128 + signal, or -1 if it had to be killed
  std::string output;
};

// Runs `body` in a child whose stdout and stderr come back here and whose
// stdin is a pipe nobody writes to (where MuJoCo's own handler would wait
// for Enter forever). A child still running after 60 s is killed.
Child run_child(const std::function<void()>& body) {
  int out[2], in[2];
  REQUIRE(pipe(out) == 0);
  REQUIRE(pipe(in) == 0);
  std::fflush(nullptr);  // or the child prints what this process buffered
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    dup2(out[1], 2);
    close(out[0]);
    close(in[1]);
    body();
    std::_Exit(0);
  }
  close(out[1]);
  close(in[0]);
  Child child;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  int wstatus = 0;
  while (waitpid(pid, &wstatus, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &wstatus, 0);
      wstatus = -1;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  char buf[4096];
  for (ssize_t n; (n = read(out[0], buf, sizeof buf)) > 0;) child.output.append(buf, static_cast<std::size_t>(n));
  close(out[0]);
  close(in[1]);
  if (wstatus != -1) child.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
  return child;
}

}  // namespace

TEST_CASE("a fatal MuJoCo error ends the process with one line, not a wait for Enter", "[env][mujoco]") {
  const Child child = run_child([] {
    seedrl::install_mujoco_messages();
    seedrl::install_mujoco_messages();  // twice is once
    mju_error("Could not allocate memory");
  });
  CHECK(child.status == 1);
  CHECK(child.output == "seedrl: error: MuJoCo: Could not allocate memory\n");
}

TEST_CASE("MuJoCo's warnings go to stderr, a bounded number, and write no log file", "[env][mujoco]") {
  const std::string dir = temp_dir();
  const Child child = run_child([&] {
    if (chdir(dir.c_str()) != 0) std::_Exit(3);
    seedrl::install_mujoco_messages();
    for (int i = 0; i < seedrl::kShownWarnings + 5; ++i) mju_warning("Nan, Inf or huge value in QACC");
  });
  CHECK(child.status == 0);
  std::string expected;
  for (int i = 0; i < seedrl::kShownWarnings; ++i)
    expected += "seedrl: warning: MuJoCo: Nan, Inf or huge value in QACC\n";
  expected += "seedrl: warning: MuJoCo: further warnings of this process are not shown\n";
  CHECK(child.output == expected);
  CHECK_FALSE(std::filesystem::exists(dir + "/MUJOCO_LOG.TXT"));
}

TEST_CASE("without the handlers MuJoCo writes MUJOCO_LOG.TXT, so the test above can tell", "[env][mujoco]") {
  const std::string dir = temp_dir();
  const Child child = run_child([&] {
    if (chdir(dir.c_str()) != 0) std::_Exit(3);
    mju_warning("Nan, Inf or huge value in QACC");
  });
  CHECK(child.status == 0);
  CHECK(std::filesystem::exists(dir + "/MUJOCO_LOG.TXT"));
}

#endif
