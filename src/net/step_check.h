// Checks what a remote actor's STEP says about each env before any of it
// reaches inference: a peer is untrusted, and a NaN observation would reach
// the learner's loss and, through the next checkpoint, replace a good model
// with a broken one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "seedrl/actor/episode_tracker.h"
#include "seedrl/env/env_step.h"

namespace seedrl::net {

// `body`: a STEP body for steps.size() envs (rewards, then flags, then the
// observations, which steps[k].obs already points at). Checks each env's
// flags (FIRST where `episodes` expects it), its reward and, when
// `obs_floats` > 0 (float32 observations of that many floats), that its
// observation is finite; fills in each EnvStep's flags and reward (the
// caller then adds them to `episodes`). Returns the protocol error, or an
// empty string.
std::string check_step(const std::uint8_t* body, std::span<EnvStep> steps, std::size_t obs_floats,
                       const EpisodeTracker& episodes);

}  // namespace seedrl::net
