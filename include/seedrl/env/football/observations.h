// The two observations SEED RL and most Football research train on, written
// straight into the caller's buffer:
// - the Super Mini Map (observation_preprocessing.generate_smm): uint8
//   [72, 96, 4], planes left team, right team, ball, our active player, 255
//   where one stands (the registry stacks 4 of them: [72, 96, 16]);
// - simple115v2 (wrappers.Simple115StateWrapper with fixed positions):
//   float32[115].
// Both read the state of the left team's agent 0, as gfootball shows it to
// a left-side agent (no mirroring).
#pragma once

#include <cstdint>

#include "seedrl/env/football/game_state.h"

namespace seedrl::football {

constexpr int kSmmHeight = 72, kSmmWidth = 96, kSmmPlanes = 4;
constexpr int kSimple115Size = 115;

void write_smm(const GameState& s, std::uint8_t* out);
void write_simple115v2(const GameState& s, float* out);

}  // namespace seedrl::football
