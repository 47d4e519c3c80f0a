// A V-trace AgentNet as a PlayPolicy, one env and one step at a time on the
// CPU: what `seedrl eval`, `play --policy checkpoint:` and the trainer's
// periodic evaluation (trainer/periodic_eval.h) act with, so that the three
// agree on the same weights and seed.
#pragma once

#include "seedrl/env/play.h"
#include "seedrl/env/spec.h"
#include "seedrl/model/agent_net.h"

namespace seedrl {

// `model` must be on the CPU and stay unchanged while the policy plays.
// Samples actions from a torch generator of its own seeded with `seed` (so
// that one seed replays the same actions, whatever other threads draw), or
// takes the most likely with `greedy`; continuous actions are clipped to
// the box, as the actors do.
PlayPolicy agent_play_policy(AgentNet model, const EnvSpec& spec, bool greedy, std::uint64_t seed);

}  // namespace seedrl
