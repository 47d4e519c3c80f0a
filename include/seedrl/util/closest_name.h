// "Did you mean ...?" for a mistyped name: the candidate fewest single-
// character edits (Levenshtein distance) away, when it is close enough.
// Header-only: the env library (below util in the build) uses it too.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace seedrl {

inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// The candidate nearest `name`, "" when none is within `max_edits` edits (or
// `name` is too long to be a typo of one). Ties go to the first candidate.
inline std::string closest_name(std::string_view name, const std::vector<std::string>& candidates,
                                std::size_t max_edits = 2) {
  if (name.size() > 64) return "";  // not a typo; and keeps the quadratic cost small
  std::string best;
  std::size_t best_distance = max_edits + 1;
  for (const std::string& c : candidates) {
    const std::size_t d = edit_distance(name, c);
    if (d < best_distance) best = c, best_distance = d;
  }
  return best;
}

}  // namespace seedrl
