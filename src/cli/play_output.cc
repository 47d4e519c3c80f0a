#include "seedrl/cli/play_output.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "seedrl/cli/validators.h"

namespace seedrl {

void print_play_stats(const PlayStats& s, bool json) {
  if (json) {
    nlohmann::json j{{"env", s.env},
                     {"episodes", s.episodes},
                     {"episode_return_mean", s.return_mean},
                     {"episode_return_std", s.return_std},
                     {"episode_length_mean", s.length_mean}};
    if (!s.outcomes.empty()) {
      auto& outcomes = j["episode_outcomes"] = nlohmann::json::object();
      for (const auto& [how, count] : s.outcomes) outcomes[how] = count;
    }
    fmt::print("{}\n", j.dump());
  } else {
    fmt::print("{} | {} episodes | return {:.3f} ± {:.3f} (std) | mean length {:.2f}\n", s.env, s.episodes,
               s.return_mean, s.return_std, s.length_mean);
    if (!s.outcomes.empty()) {
      std::string line;
      for (const auto& [how, count] : s.outcomes)
        line += fmt::format("{}{} {:.3f} ({}/{})", line.empty() ? "" : ", ", how,
                            static_cast<double>(count) / s.episodes, count, s.episodes);
      fmt::print("ended: {}\n", line);
    }
  }
}

void add_record_flags(CLI::App& cmd, std::string& file, long& max_frames) {
  cmd.add_option("--record", file,
                 "Write the episodes as an animated GIF to this file (MinAtar, classic control, Atari)");
  cmd.add_option("--record-max-frames", max_frames,
                 "Frames --record keeps at most (later ones are played, not recorded)")
      ->check(in_range(1L, 1L << 30));
}

}  // namespace seedrl
