#include "seedrl/util/signal_watcher.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace seedrl {

namespace {
sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}
}  // namespace

void block_stop_signals() {
  sigset_t set = stop_signals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

void exit_on_stop_signal(int sig) {
  std::fprintf(stderr, "seedrl: stopped by %s\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
  std::fflush(stderr);
  std::_Exit(128 + sig);
}

SignalWatcher::SignalWatcher(std::function<void(int)> on_signal) : on_signal_(std::move(on_signal)) {
  thread_ = std::thread([this] {
    sigset_t set = stop_signals();
    const timespec poll{0, 100'000'000};  // wake to notice shutdown
    while (!done_.load()) {
      const int sig = sigtimedwait(&set, nullptr, &poll);
      if (sig > 0) on_signal_(sig);
    }
  });
}

SignalWatcher::~SignalWatcher() {
  done_.store(true);
  thread_.join();
}

}  // namespace seedrl
