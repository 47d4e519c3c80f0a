#include "session_registry.h"

#include "remote_session.h"

namespace seedrl::net {

void SessionRegistry::count_running() {
  std::lock_guard lock(mu_);
  ++running_;
}

void SessionRegistry::remove(RemoteSession* s) {
  std::shared_ptr<RemoteSession> keep;  // destroyed outside the lock
  {
    std::lock_guard lock(mu_);
    auto it = sessions_.find(s);
    if (it == sessions_.end()) return;
    keep = std::move(it->second);
    sessions_.erase(it);
    if (keep->was_running()) --running_;
  }
  cv_.notify_all();
}

std::vector<std::shared_ptr<RemoteSession>> SessionRegistry::all() const {
  std::vector<std::shared_ptr<RemoteSession>> out;
  std::lock_guard lock(mu_);
  for (auto& [_, s] : sessions_) out.push_back(s);
  return out;
}

void SessionRegistry::wait_until_empty() {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return sessions_.empty(); });
}

int SessionRegistry::running() const {
  std::lock_guard lock(mu_);
  return running_;
}

}  // namespace seedrl::net
