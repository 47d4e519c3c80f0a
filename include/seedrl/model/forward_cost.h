// How much CPU the agent's network costs per sample, measured at start-up:
// --learner-cpus auto weighs the learner's passes over each agent step
// against the actors' env step and inference with it.
#pragma once

#include "seedrl/env/spec.h"
#include "seedrl/model/model_config.h"

namespace seedrl {

// Mean CPU time (the process's, in ns: intra-op threads count; call it
// before other threads start) of one sample's forward pass through
// a fresh AgentNet(spec, model, policy_size) on the CPU, without gradients,
// the cheapest of batches of `batch` single-step samples after one warm-up
// batch: at least three timed batches, then more until `max_seconds` of CPU
// time are spent (at most 64 batches).
double measure_forward_ns(const EnvSpec& spec, const ModelConfig& model, int policy_size, int batch = 16,
                          double max_seconds = 0.05);

}  // namespace seedrl
