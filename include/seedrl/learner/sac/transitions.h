// SAC's transitions out of stored sequences. The store's entries follow the
// env (env/env_step.h): entry t holds obs_t, its flags, the reward of the step
// that led to it and the action taken at it (ignored where obs_t is an
// episode's last). From every entry t that is not an episode's last, a k-step
// transition: reward r_{t+1} + g r_{t+2} + ... + g^(k-1) r_{t+k}, next_obs
// obs_{t+k} and discount g^k, where k is n_step or less: it stops at the
// episode's last entry (terminal: no bootstrap; truncated: bootstrap from it)
// or at the sequence's end.
#pragma once

#include <vector>

#include "seedrl/learner/sac/sac_update.h"
#include "seedrl/trajectory/trajectory_store.h"

namespace seedrl::sac {

// `sequences`: [L, B, ...] entries. Actions are mapped from the env's box
// [low, high] to (-1, 1), where the policy and the critics work. Transitions
// start at entries t < `starts` only (all by default); the SAC learner's
// replayed sequences are n_step + 1 entries long, one a step, and give the
// one transition of their entry 0 (none when entry 0 ended an episode).
// Each step's reward is shaped before the sum as every learner shapes it
// (learner/reward_shaping.h): clamped to [-reward_clip, reward_clip] when
// reward_clip > 0, then multiplied by reward_scale.
TransitionBatch make_transitions(const UnrollBatch& sequences, int n_step, double discount,
                                 const std::vector<float>& low, const std::vector<float>& high,
                                 std::int64_t starts = -1, double reward_clip = 0, double reward_scale = 1);

}  // namespace seedrl::sac
