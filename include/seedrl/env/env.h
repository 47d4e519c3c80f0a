// The environment interface. Environments write observations straight into a
// caller-owned buffer (a row of the inference batch or an actor's staging row)
// so that the hot path neither allocates nor copies more than once.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "seedrl/env/spec.h"

namespace seedrl {

// An action as the env sees it: a discrete index, or `spec.action.dim` floats.
struct Action {
  std::int32_t index = 0;
  const float* values = nullptr;
};

struct StepResult {
  float reward = 0.f;
  bool terminated = false;  // a terminal state: no bootstrap
  bool truncated = false;   // time limit or similar: bootstrap from the last obs
  // With `terminated`: a life ended, not the game (Atari's
  // --terminal-on-life-loss). The learner sees a terminal; the next reset
  // continues the game, and the episode statistics count the whole game.
  bool life_lost = false;
};

class Env {
 public:
  virtual ~Env() = default;
  virtual const EnvSpec& spec() const = 0;

  // Starts an episode. With a seed, the env's random stream is reseeded first;
  // without, it continues, so one seed at construction fixes every episode.
  // `obs` has room for spec().observation.bytes().
  virtual void reset(std::optional<std::uint64_t> seed, void* obs) = 0;

  // Advances one step. Must not be called after terminated/truncated without
  // a reset in between.
  virtual StepResult step(const Action& action, void* obs) = 0;
};

using EnvPtr = std::unique_ptr<Env>;

}  // namespace seedrl
