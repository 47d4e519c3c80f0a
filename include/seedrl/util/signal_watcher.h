// Turns SIGINT/SIGTERM into a callback on an ordinary thread. The signals are
// blocked in every thread (call block_stop_signals() before starting any) and
// collected with sigtimedwait, so no async-signal-safety rules apply to the
// callback and no global flag is needed.
#pragma once

#include <atomic>
#include <functional>
#include <thread>

namespace seedrl {

// Blocks SIGINT and SIGTERM in the calling thread and the threads it starts.
void block_stop_signals();

// A SignalWatcher callback for commands with nothing to save (bench, eval,
// play): says which signal stopped the command and exits 128 + sig at once,
// without waiting for worker threads.
[[noreturn]] void exit_on_stop_signal(int sig);

class SignalWatcher {
 public:
  explicit SignalWatcher(std::function<void(int)> on_signal);
  ~SignalWatcher();
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

 private:
  std::function<void(int)> on_signal_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

}  // namespace seedrl
