// How much memory this process can still take: MemAvailable from
// /proc/meminfo, or the headroom under its cgroup's memory limit where that is
// lower. One rule for every size check made before allocating (the start-up
// estimate of a run, the R2D2 replay).
#pragma once

#include <cstdint>
#include <string>

namespace seedrl {

// Bytes; 0 when unknown (then nothing can be checked against it).
std::uint64_t available_memory_bytes();

// The parts, for tests: MemAvailable from /proc/meminfo text (0 if absent),
// and a cgroup's headroom from its limit, usage and memory.stat files' text
// (v1 memory.limit_in_bytes / memory.usage_in_bytes or v2 memory.max /
// memory.current; the inactive page cache counts as free; 0 when unlimited
// or unreadable).
std::uint64_t meminfo_available(const std::string& meminfo);
std::uint64_t cgroup_headroom(const std::string& limit, const std::string& usage, const std::string& stat = "");

// "12.3 GiB", or "85 MiB" under 1 GiB
std::string memory_text(double bytes);

}  // namespace seedrl
