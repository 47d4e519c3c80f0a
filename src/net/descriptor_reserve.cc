#include "seedrl/net/descriptor_reserve.h"

#include <dirent.h>
#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <limits>

namespace seedrl::net {

namespace {
constexpr std::size_t kUnlimited = std::numeric_limits<int>::max();

// The most a soft limit may be set to when the hard limit is unlimited.
rlim_t kernel_nr_open() {
  std::ifstream in("/proc/sys/fs/nr_open");
  unsigned long long n = 0;
  if (in >> n && n > 0) return static_cast<rlim_t>(n);
  return 1 << 20;
}
}  // namespace

std::size_t descriptor_limit() {
  rlimit r{};
  if (::getrlimit(RLIMIT_NOFILE, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return kUnlimited;
  return static_cast<std::size_t>(std::min<rlim_t>(r.rlim_cur, kUnlimited));
}

std::size_t raise_descriptor_limit() {
  rlimit r{};
  if (::getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur != r.rlim_max) {
    rlimit raised = r;
    raised.rlim_cur = r.rlim_max == RLIM_INFINITY ? kernel_nr_open() : r.rlim_max;
    if (raised.rlim_cur > r.rlim_cur) ::setrlimit(RLIMIT_NOFILE, &raised);  // keeps the old limit on failure
  }
  return descriptor_limit();
}

std::size_t open_descriptors() {
  // opendir itself takes one descriptor (counted in the listing, not kept).
  DIR* dir = ::opendir("/proc/self/fd");
  if (dir == nullptr) return errno == EMFILE || errno == ENFILE ? descriptor_limit() : 0;
  std::size_t n = 0;
  while (const dirent* e = ::readdir(dir))
    if (e->d_name[0] != '.') ++n;
  ::closedir(dir);
  return n > 0 ? n - 1 : 0;
}

std::size_t default_descriptor_reserve(std::size_t limit) { return std::max<std::size_t>(64, limit / 8); }

std::size_t socket_budget(std::size_t reserve) {
  const std::size_t limit = descriptor_limit();
  if (reserve == 0) reserve = default_descriptor_reserve(limit);
  const std::size_t used = open_descriptors() + reserve;
  return limit > used ? limit - used : 1;
}

}  // namespace seedrl::net
