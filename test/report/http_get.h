// A minimal HTTP client for the dashboard tests (Boost.Beast, blocking),
// with a generous deadline that only catches hangs.
#pragma once

#include <cstdint>
#include <string>

namespace seedrl::test {

struct HttpResult {
  int status = 0;  // 0: the server closed the connection without a response
  std::string body;
  bool timed_out = false;  // no response and no close within the (hang-catching) deadline
};

// GET `target` from 127.0.0.1:`port`.
HttpResult http_get(std::uint16_t port, const std::string& target);

// Sends `raw` bytes as they are and reads one response (status 0 if the
// server closes instead).
HttpResult http_raw(std::uint16_t port, const std::string& raw);

}  // namespace seedrl::test
