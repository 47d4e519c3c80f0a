#include "seedrl/util/constant_time_equal.h"

#include <algorithm>
#include <cstddef>

namespace seedrl {

bool constant_time_equal(std::string_view a, std::string_view b) {
  // Walk the longer string fully; a length mismatch still costs the same time.
  const std::size_t n = std::max(a.size(), b.size());
  unsigned diff = a.size() == b.size() ? 0u : 1u;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned ca = i < a.size() ? static_cast<unsigned char>(a[i]) : 0u;
    const unsigned cb = i < b.size() ? static_cast<unsigned char>(b[i]) : 0u;
    diff |= ca ^ cb;
  }
  return diff == 0;
}

}  // namespace seedrl
