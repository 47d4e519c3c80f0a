// File descriptors for a server that strangers can connect to. Every accepted
// connection costs a descriptor; a flood of them must not take the ones the
// rest of the process needs to write checkpoints and logs. The server holds at
// most socket_budget() sockets and leaves the reserve alone.
#pragma once

#include <cstddef>

namespace seedrl::net {

// Raises the soft RLIMIT_NOFILE to the hard limit (or the kernel's nr_open when
// the hard limit is unlimited). Returns the soft limit now in effect.
std::size_t raise_descriptor_limit();

// The soft RLIMIT_NOFILE (a large number when unlimited).
std::size_t descriptor_limit();

// Descriptors this process has open now (entries of /proc/self/fd).
std::size_t open_descriptors();

// Descriptors kept for everything but the server when `reserve` is 0:
// max(64, limit / 8).
std::size_t default_descriptor_reserve(std::size_t limit);

// How many sockets a server started now may hold: the limit less what is open
// and less the reserve (`reserve` 0: the default). At least 1.
std::size_t socket_budget(std::size_t reserve);

}  // namespace seedrl::net
