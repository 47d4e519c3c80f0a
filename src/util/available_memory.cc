#include "seedrl/util/available_memory.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>

#include <fmt/format.h>

namespace seedrl {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A cgroup's directories from /proc/self/cgroup, innermost first, each with
// its ancestors (a limit may be set on any of them): "v1:<dir>" or "v2:<dir>".
std::vector<std::string> cgroup_dirs() {
  std::vector<std::string> dirs;
  std::istringstream lines(slurp("/proc/self/cgroup"));
  for (std::string line; std::getline(lines, line);) {
    // hierarchy-id:controllers:path
    const auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1);
    std::string dir;
    if (controllers.empty())
      dir = "v2:/sys/fs/cgroup";
    else if (("," + controllers + ",").find(",memory,") != std::string::npos)
      dir = "v1:/sys/fs/cgroup/memory";
    else
      continue;
    // The root, then each directory below it on the way to the process's own.
    std::vector<std::string> chain{dir};
    std::istringstream parts(line.substr(b + 1));
    for (std::string part; std::getline(parts, part, '/');) {
      if (part.empty()) continue;
      dir.append("/").append(part);
      chain.push_back(dir);
    }
    dirs.insert(dirs.end(), chain.rbegin(), chain.rend());
  }
  return dirs;
}

}  // namespace

std::uint64_t meminfo_available(const std::string& meminfo) {
  std::istringstream in(meminfo);
  std::string key, unit;
  std::uint64_t kb = 0;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return 0;
}

std::uint64_t cgroup_headroom(const std::string& limit_text, const std::string& usage_text,
                              const std::string& stat_text) {
  std::uint64_t limit = 0, usage = 0;
  std::istringstream l(limit_text), u(usage_text);
  if (!(l >> limit) || !(u >> usage)) return 0;     // v2 "max": no limit
  if (limit >= (std::uint64_t{1} << 60)) return 0;  // v1's "unlimited" is about 2^63
  // Usage counts the page cache; its inactive part is reclaimed before the
  // limit bites.
  std::istringstream stat(stat_text);
  std::string key;
  std::uint64_t value = 0;
  while (stat >> key >> value)
    if (key == "total_inactive_file" || key == "inactive_file") usage -= std::min(usage, value);
  return limit > usage ? limit - usage : 1;  // at the limit: 1 byte, not "unknown"
}

std::uint64_t available_memory_bytes() {
  std::uint64_t available = meminfo_available(slurp("/proc/meminfo"));
  for (const std::string& dir : cgroup_dirs()) {
    const bool v2 = dir.rfind("v2:", 0) == 0;
    const std::string d = dir.substr(3);
    const std::uint64_t headroom =
        v2 ? cgroup_headroom(slurp(d + "/memory.max"), slurp(d + "/memory.current"), slurp(d + "/memory.stat"))
           : cgroup_headroom(slurp(d + "/memory.limit_in_bytes"), slurp(d + "/memory.usage_in_bytes"),
                             slurp(d + "/memory.stat"));
    if (headroom > 0) available = available == 0 ? headroom : std::min(available, headroom);
  }
  return available;
}

std::string memory_text(double bytes) {
  if (bytes < 1024.0 * 1024 * 1024) return fmt::format("{:.0f} MiB", bytes / (1024.0 * 1024.0));
  return fmt::format("{:.1f} GiB", bytes / (1024.0 * 1024.0 * 1024.0));
}

}  // namespace seedrl
