// One environment step as an actor hands it to central inference: the
// observation reached, the reward and episode flags that came with it, and
// where to write the action. Plain data, no torch: actors never see a model.
#pragma once

#include <cstdint>

namespace seedrl {

enum StepFlags : std::uint8_t {
  kFirst = 1,       // obs starts an episode (after reset): recurrent state is zeroed
  kTerminated = 2,  // obs is terminal: no bootstrap, the action is ignored
  kTruncated = 4,   // obs is the last of a cut-off episode: bootstrap from it
  kLifeLost = 8,    // with kTerminated: a life ended and the game goes on (statistics count the game)
};

struct EnvStep {
  std::int32_t slot = 0;  // the env's global slot id
  std::uint8_t flags = 0;
  float reward = 0.f;         // reward of the transition that led to obs
  const void* obs = nullptr;  // spec.observation.bytes() bytes
  float* action = nullptr;    // out: action_width floats
};

constexpr bool is_last(std::uint8_t flags) { return flags & (kTerminated | kTruncated); }

}  // namespace seedrl
