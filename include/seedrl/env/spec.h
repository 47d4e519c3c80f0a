// Observation and action specs: what an environment produces and accepts.
// Plain data, no torch: environments and actors do not depend on LibTorch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "seedrl/util/dtype.h"

namespace seedrl {

std::size_t dtype_size(DType d);
const char* dtype_name(DType d);

// A dense array spec: row-major shape and element type.
struct ArraySpec {
  std::vector<std::int64_t> shape;
  DType dtype = DType::kFloat32;

  std::size_t numel() const;
  std::size_t bytes() const { return numel() * dtype_size(dtype); }
  std::string to_string() const;  // e.g. "float32[4]" or "uint8[10,10,4]"
  bool operator==(const ArraySpec&) const = default;
};

// Discrete: one integer in [0, num_actions). Continuous: a float vector of
// `dim` entries in the box [low, high].
struct ActionSpec {
  enum class Kind : std::uint8_t { kDiscrete, kContinuous };
  Kind kind = Kind::kDiscrete;
  int num_actions = 0;           // discrete only
  int dim = 1;                   // continuous only (1 for discrete)
  std::vector<float> low, high;  // continuous only, size dim

  static ActionSpec discrete(int n);
  static ActionSpec box(std::vector<float> low, std::vector<float> high);

  bool is_discrete() const { return kind == Kind::kDiscrete; }
  // Floats needed to store one action: 1 for discrete (the index), dim otherwise.
  int width() const { return is_discrete() ? 1 : dim; }
  std::string to_string() const;  // e.g. "discrete(2)" or "box(1)[-2,2]"
  bool operator==(const ActionSpec&) const = default;
};

struct EnvSpec {
  std::string name;
  ArraySpec observation;
  ActionSpec action;
  int max_episode_steps = 0;  // 0: no time limit
  // Labels for people (play --render, videos); learning never reads them.
  // Empty where an env has none. action_names: one per discrete action.
  // observation_names: one per entry of the observation's last axis (a
  // vector's components, an image's channels).
  std::vector<std::string> action_names;
  std::vector<std::string> observation_names;
};

}  // namespace seedrl
