#include "seedrl/cli/replay_pacing.h"

#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "seedrl/cli/config_file.h"

namespace seedrl {

namespace {

// "500" as given, "10000 (the default)" otherwise: the user may never have
// typed the number the error is about.
template <typename T>
std::string value_of(const CLI::App& cmd, const char* flag, T value) {
  return fmt::format("{}{}", value, flag_given(cmd, flag) ? "" : " (the default)");
}

}  // namespace

void check_replay_pacing(const CLI::App& cmd, const TrainConfig& c) {
  if (c.algo != "r2d2" && c.algo != "sac") return;
  const bool sac = c.algo == "sac";
  const R2D2Config& r = c.r2d2;
  const std::int64_t frames = c.learner.max_frames;
  const int batch = c.learner.batch_size;
  const std::string max_frames = value_of(cmd, "--max-frames", frames);
  const std::string batch_size = value_of(cmd, "--batch-size", batch);
  // An env step inserts at most one sequence or transition.
  if (r.min_replay > frames)
    throw std::invalid_argument(
        fmt::format("--min-replay: {} exceeds --max-frames {}: the replay would never fill, nor the learner start",
                    value_of(cmd, "--min-replay", r.min_replay), max_frames));
  // SAC's replay starts sampling at max(--min-replay, --batch-size) transitions.
  if (sac && batch > frames)
    throw std::invalid_argument(fmt::format(
        "--batch-size: {} exceeds --max-frames {}: the replay would never hold a batch, nor the learner start",
        batch_size, max_frames));
  if (sac && c.sac.random_steps >= frames)
    throw std::invalid_argument(
        fmt::format("--random-steps: {} is not below --max-frames {}: every step would act at random, none by the "
                    "policy learned",
                    value_of(cmd, "--random-steps", c.sac.random_steps), max_frames));
  if (r.replay_ratio <= 0) return;  // no limit
  const std::string ratio = value_of(cmd, "--replay-ratio", r.replay_ratio);
  if (r.replay_ratio > kMaxUpdatesPerInsert * batch)
    throw std::invalid_argument(
        fmt::format("--replay-ratio: {} exceeds {} x --batch-size {}: over {} learner updates per {} inserted", ratio,
                    kMaxUpdatesPerInsert, batch_size, kMaxUpdatesPerInsert, sac ? "transition" : "sequence"));
  // The limiter lets the first batch through; each later one needs a batch
  // of samples earned by inserts, at most one per env step.
  if (r.replay_ratio * static_cast<double>(frames) < batch)
    throw std::invalid_argument(
        fmt::format("--replay-ratio: {} x --max-frames {} samples less than one --batch-size {}: the learner "
                    "would update once in the whole run",
                    ratio, max_frames, batch_size));
}

}  // namespace seedrl
