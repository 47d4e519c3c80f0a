// Every live connection of a remote actor server (handshaking, running or
// ending), and how many are past the handshake. The registry keeps each
// session alive until the session asks to be forgotten. Thread-safe.
#pragma once

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace seedrl::net {

class RemoteSession;

class SessionRegistry {
 public:
  // Registers the session that `make()` returns, unless `max` are registered
  // already: then returns nullptr without calling `make`.
  template <class Make>
  std::shared_ptr<RemoteSession> add(int max, Make&& make) {
    std::lock_guard lock(mu_);
    if (static_cast<int>(sessions_.size()) >= max) return nullptr;
    std::shared_ptr<RemoteSession> s = make();
    sessions_.emplace(s.get(), s);
    return s;
  }
  // A session finished its handshake.
  void count_running();
  // Forgets a finished session (on an I/O thread), after it released its slots.
  void remove(RemoteSession* s);
  std::vector<std::shared_ptr<RemoteSession>> all() const;
  void wait_until_empty();
  // Sessions past the handshake.
  int running() const;

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<RemoteSession*, std::shared_ptr<RemoteSession>> sessions_;  // guarded by mu_
  int running_ = 0;                                                    // guarded by mu_
};

}  // namespace seedrl::net
