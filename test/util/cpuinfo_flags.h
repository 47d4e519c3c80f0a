// The kernel's own view of the CPU, an independent reference for seedrl's
// CPU feature checks: the first "flags" line of /proc/cpuinfo.
#pragma once

#include <fstream>
#include <string>

namespace seedrl::test {

// The flags, space-padded (" fpu ... avx2 ... "), or "" where there is no
// such line (not Linux on x86).
inline std::string cpuinfo_flags() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("flags", 0) == 0) return line.substr(line.find(':') + 1) + ' ';
  return "";
}

inline bool cpuinfo_has(const std::string& flags, const std::string& name) {
  return flags.find(' ' + name + ' ') != std::string::npos;
}

}  // namespace seedrl::test
