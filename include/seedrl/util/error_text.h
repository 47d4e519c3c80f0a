// An exception as one line for the log or the terminal. LibTorch's errors
// (c10::Error) carry a C++ backtrace of 10-30 "frame #N" lines after their
// message; users need the message, not LibTorch's call stack.
#pragma once

#include <exception>
#include <string>

namespace seedrl {

// The message without LibTorch's backtrace, cut at its first line break.
std::string error_text(const std::exception& e);

}  // namespace seedrl
