// Ending a TCP connection so that the peer reads the reason. Closing a socket
// with unread input makes the kernel answer with a reset, and a reset can
// destroy the GOODBYE or REJECT just written before the peer reads it (or fail
// the peer's write before it gets to read). So: write the reason, half-close,
// read and discard what the peer still sends until it closes too, and only
// then close, within a bound in bytes and time.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange unincluded

#include <boost/asio.hpp>

namespace seedrl::net {

struct LingerLimits {
  std::size_t max_bytes = std::size_t{1} << 22;  // peer input discarded at most
  std::chrono::milliseconds max_time{2000};      // from the start to the close at most
};

// Writes `farewell` (a whole frame, or empty), half-closes, discards input
// until the peer closes or a limit is reached, closes, then calls `on_closed`
// (on the socket's executor). The socket must have no operation pending, and
// its executor must be a strand when the io_context has several threads.
void close_gracefully(boost::asio::ip::tcp::socket socket, std::vector<std::uint8_t> farewell, LingerLimits limits,
                      std::function<void()> on_closed);

// For a connection not worth its descriptor a moment longer: sends `farewell`
// if the socket takes it without waiting, discards the input already there
// (bounded) so the close is not a reset where avoidable, and closes.
void close_at_once(boost::asio::ip::tcp::socket& socket, const std::vector<std::uint8_t>& farewell);

}  // namespace seedrl::net
