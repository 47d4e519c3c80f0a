// The sockets a server holds: open connections (handshaking ones included)
// and closing ones that linger to say why (graceful_close.h). At most the
// open-file limit less what is open at start() less a reserve
// (descriptor_reserve.h), so that a flood of peers leaves the rest of the
// process the descriptors for its checkpoints and logs. Thread-safe.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace seedrl::net {

class SocketBudget {
 public:
  // Sets the cap (`reserve` 0: the default reserve); at most `max_lingering`
  // sockets linger at once.
  void start(std::size_t reserve, int max_lingering);
  // A socket for a new connection; false at the cap (refuse it at once).
  bool take();
  // Whether a closing connection may keep its socket to linger.
  bool linger();
  // A socket taken is closed (`lingered`: after linger() said yes).
  void release(bool lingered);
  // Waits until every socket taken is released.
  void wait_all_released();
  int held() const;
  int cap() const;

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  int held_ = 0, lingering_ = 0, cap_ = 0, max_lingering_ = 0;
};

}  // namespace seedrl::net
