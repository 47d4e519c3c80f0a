// The kernel's own view of the CPU, an independent reference for seedrl's
// CPU feature checks: the first "flags" and "vendor_id" lines of /proc/cpuinfo.
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

// "GenuineIntel", "AuthenticAMD", ..., or "" where there is no such line.
inline std::string cpuinfo_vendor() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("vendor_id", 0) != 0) continue;
    const auto start = line.find_first_not_of(" \t", line.find(':') + 1);
    return start == std::string::npos ? "" : line.substr(start);
  }
  return "";
}

// Whether bfloat16 matrix products outrun float32's, from the kernel's view:
// AMX, or AVX512-BF16 on a CPU that is not Intel's (an Intel core issues the
// bfloat16 dot product at half the rate of its float32 FMAs).
inline bool cpuinfo_bf16_faster() {
  const std::string flags = cpuinfo_flags();
  return cpuinfo_has(flags, "amx_bf16") || (cpuinfo_has(flags, "avx512_bf16") && cpuinfo_vendor() != "GenuineIntel");
}

}  // namespace seedrl::test
