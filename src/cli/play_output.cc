#include "seedrl/cli/play_output.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace seedrl {

void print_play_stats(const PlayStats& s, bool json) {
  if (json) {
    const nlohmann::json j{{"env", s.env},
                           {"episodes", s.episodes},
                           {"episode_return_mean", s.return_mean},
                           {"episode_return_std", s.return_std},
                           {"episode_length_mean", s.length_mean}};
    fmt::print("{}\n", j.dump());
  } else {
    fmt::print("{} | {} episodes | return {:.3f} ± {:.3f} (std) | mean length {:.2f}\n", s.env, s.episodes,
               s.return_mean, s.return_std, s.length_mean);
  }
}

}  // namespace seedrl
