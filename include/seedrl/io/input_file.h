// Reading a file that a user named (--config, --token-file, a checkpoint):
// only a regular file is read. A FIFO, a socket or a device would block the
// read, or never end it, and hang the command; a directory reads as nothing.
// The file is opened without blocking and checked through its descriptor, so
// what is checked is what is read.
#pragma once

#include <cstddef>
#include <string>

namespace seedrl {

// A descriptor (blocking again, close-on-exec) of the regular file at `path`.
// Throws std::invalid_argument "<what> <path>: <reason>", one line.
int open_regular_file(const std::string& path, const std::string& what);

// The whole file, refused (the same way) when it holds more than `max_bytes`.
std::string read_regular_file(const std::string& path, const std::string& what, std::size_t max_bytes);

}  // namespace seedrl
