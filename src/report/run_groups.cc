#include "seedrl/report/run_groups.h"

namespace seedrl::report {

std::vector<std::vector<std::size_t>> group_by_config(const std::vector<RunData>& runs) {
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    bool placed = false;
    if (runs[i].has_config) {
      for (auto& g : groups) {
        const RunData& first = runs[g.front()];
        if (first.has_config && first.config_identity == runs[i].config_identity) {
          g.push_back(i);
          placed = true;
          break;
        }
      }
    }
    if (!placed) groups.push_back({i});
  }
  return groups;
}

}  // namespace seedrl::report
