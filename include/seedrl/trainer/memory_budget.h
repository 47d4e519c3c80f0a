// The memory a run will take, estimated from its flags before anything is
// allocated, so that an absurd size (--hidden 65536 65536, a replay of a
// billion sequences) is refused in one line naming its flag instead of
// growing until the kernel kills the process.
#pragma once

#include <string>
#include <vector>

#include "seedrl/env/spec.h"
#include "seedrl/trainer/train_config.h"

namespace seedrl {

// More MLP layers than this are refused (--hidden).
inline constexpr int kMaxHiddenLayers = 64;

// Parameters of the network `config` builds for `spec`: AgentNet for
// V-trace, QNet for R2D2, counted from the layer sizes (nothing is built).
// `flag` is set to the flag that sizes most of them (--hidden for the MLP
// torso, --model for the image torsos, --lstm-size for the LSTM core).
double parameter_count(const TrainConfig& config, const EnvSpec& spec, std::string* flag = nullptr);

struct MemoryItem {
  std::string flag;  // the flag that sizes it
  std::string what;  // e.g. "the model (4.3e+09 parameters x 7 copies: ...)"
  double bytes = 0;
};

struct MemoryEstimate {
  std::vector<MemoryItem> items;
  double total() const;
  const MemoryItem& largest() const;
};

// Where the model copies live: only those on CPUs count against host memory.
struct HostCopies {
  int learners = 1;   // CPU learner replicas
  int inference = 1;  // CPU inference devices
};

// `config` with its defaults resolved (resolve_defaults).
MemoryEstimate estimate_memory(const TrainConfig& config, const EnvSpec& spec, HostCopies copies);

// Throws std::invalid_argument naming the largest item's flag when the
// estimate exceeds 90% of `available_bytes` (0: unknown, nothing checked).
void check_memory(const MemoryEstimate& estimate, double available_bytes);

// The check at the start of a run, on a copy of `config`: --hidden's length,
// then the estimate for its resolved defaults, placement and env against the
// memory available (util/available_memory.h). Prints nothing: a refusal
// that follows must stay the run's only line.
MemoryEstimate check_train_memory(const TrainConfig& config);

}  // namespace seedrl
