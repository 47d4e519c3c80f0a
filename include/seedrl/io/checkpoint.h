// Checkpoints: model, optimizer, counters and the run's config in one file.
// The file is a small header (magic, lengths, CRC32C), a JSON index of the
// counters, config and every tensor, then the tensors' raw bytes (layout in
// checkpoint.cc). A checkpoint is untrusted input: every field is checked
// before anything is loaded, and no file byte reaches LibTorch's archive or
// TorchScript readers; every failure is a CheckpointError of one line naming
// the file. Writes go to a temporary file that is fsync'ed and renamed over
// the old one: a crash mid-write leaves the previous checkpoint intact.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>

namespace seedrl {

// When a run's mean return first reached `train --target-return`: kept in
// its checkpoints so that a resumed run reports the first time, not the resume.
struct TargetReached {
  double target = 0;  // the --target-return it was reached for
  double mean_return = 0;
  std::int64_t frames = 0;
  double wall_seconds = 0;
  std::int64_t learner_steps = 0;
  std::int64_t episodes = 0;
};

struct CheckpointCounters {
  std::int64_t frames = 0;  // environment steps taken
  std::int64_t learner_steps = 0;
  std::int64_t learner_frames = 0;  // frames consumed by updates (drives the lr schedule)
  std::int64_t episodes = 0;
  // The run as the user saw it, so that a resume goes on from there: the
  // wall time so far and the last episodes' returns and lengths (oldest
  // first, at most kMaxRecentEpisodes). Absent in older checkpoints.
  double wall_seconds = 0;
  std::vector<double> recent_returns, recent_lengths;
  std::optional<TargetReached> target_reached;
};
inline constexpr std::size_t kMaxRecentEpisodes = 10000;

class CheckpointError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void save_checkpoint(const std::string& path, const torch::nn::Module& model, const torch::optim::Optimizer& optimizer,
                     const CheckpointCounters& counters, const std::string& config_json);

// Named modules an algorithm saves beside the model (R2D2's target network),
// stored under "extra/<name>".
using CheckpointExtras = std::vector<std::pair<std::string, const torch::nn::Module*>>;
using CheckpointExtrasIn = std::vector<std::pair<std::string, torch::nn::Module*>>;
void save_checkpoint(const std::string& path, const torch::nn::Module& model, const torch::optim::Optimizer& optimizer,
                     const CheckpointCounters& counters, const std::string& config_json,
                     const CheckpointExtras& extras);

struct LoadedCheckpoint {
  CheckpointCounters counters;
  std::string config_json;
  // The model's tensors in the file, by name: their shapes.
  std::vector<std::pair<std::string, std::vector<std::int64_t>>> model_shapes;
};

// Reads counters and config only (for eval, and to rebuild a model before
// loading weights). Throws CheckpointError naming the file.
LoadedCheckpoint read_checkpoint_header(const std::string& path);
// Loads weights into `model` and, when given, the optimizer's state (Adam or
// RMSprop). Names, shapes and dtypes must match the model's exactly; on any
// mismatch nothing is changed.
LoadedCheckpoint load_checkpoint(const std::string& path, torch::nn::Module& model, torch::optim::Optimizer* optimizer);
// Also loads each extra module; one missing from the file is an error.
LoadedCheckpoint load_checkpoint(const std::string& path, torch::nn::Module& model, torch::optim::Optimizer* optimizer,
                                 const CheckpointExtrasIn& extras);

// The checkpoint file of a log directory.
std::string checkpoint_path(const std::string& logdir);

// Whether every parameter and floating-point buffer of `module` is finite
// (what is worth saving over a good checkpoint).
bool all_finite(const torch::nn::Module& module);

}  // namespace seedrl
