#include "seedrl/util/renamed_settings.h"

#include <algorithm>

namespace seedrl {
namespace {

struct Rename {
  std::string_view old_name, current;
};

// "core" means the LSTM state; the CPUs kept for learner threads are "cpus".
constexpr Rename kRenamed[] = {
    {"learner-cores", "learner-cpus"},
};

}  // namespace

std::string current_setting_name(std::string_view name) {
  std::string dashed(name);
  std::replace(dashed.begin(), dashed.end(), '_', '-');
  for (const Rename& r : kRenamed)
    if (dashed == r.old_name) return std::string(r.current);
  return std::string(name);
}

}  // namespace seedrl
