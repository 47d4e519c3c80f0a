// Tests wait for a condition, never for an amount of time: a loaded machine
// (ctest -j8 on 2 cores) can take far longer than any sleep to get there.
// The deadline only turns a hang into a failure.
#pragma once

#include <chrono>
#include <thread>

namespace seedrl::test {

// Polls `condition` until it holds or `timeout` passes; returns whether it holds.
template <typename Condition>
bool wait_until(Condition&& condition, std::chrono::seconds timeout = std::chrono::seconds(120)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return condition();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

}  // namespace seedrl::test
