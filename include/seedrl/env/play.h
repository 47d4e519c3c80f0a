// Plays whole episodes of one environment with any policy, single-threaded:
// the engine behind `seedrl play` and `seedrl eval`.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "seedrl/env/env.h"

namespace seedrl {

struct PlayStats {
  std::string env;  // the env's name
  int episodes = 0;
  double return_mean = 0, return_std = 0, length_mean = 0;
  // How many episodes ended each way, where the env says
  // (episode_outcome.h; Football), most frequent first.
  std::vector<std::pair<std::string, int>> outcomes;
};

// Writes the action for `obs` into `action` (spec.action.width() floats);
// `first` marks an episode's first observation (for recurrent policies).
// `reward` came with `obs` (0 when `first`); recurrent Q-networks take it in.
using PlayPolicy = std::function<void(const void* obs, bool first, float reward, float* action)>;

// Seeds the env once with `seed`, then lets its stream continue episode to
// episode (like Gymnasium's reset(seed=S) followed by reset()). An episode is
// a game: after a lost life (StepResult::life_lost) the env is reset, the
// policy told `first`, and the score goes on. With `trace`,
// a legend (render_legend) and then every observation is drawn there
// (render_observation) with the action taken, by name where the env names
// its actions, and the reward it brought.
PlayStats play_episodes(Env& env, const PlayPolicy& policy, int episodes, std::uint64_t seed,
                        std::ostream* trace = nullptr);

// Text picture of one observation. An [H, W, C] uint8 image of 0s and 1s
// (MinAtar) becomes H rows of W characters: '.' for an empty cell, else the
// letter of the highest channel set ('a' = channel 0); any other uint8 image
// (Atari's grayscale) shows its last channel, the newest frame of a stack,
// in ten shades from ' ' to '@'. Anything else is printed as its values in a
// row, each after its name where the spec names them ("pole_angle=0.01").
void render_observation(const EnvSpec& spec, const void* obs, std::ostream& out);

// One line saying what render_observation's characters mean for `obs` (the
// first observation: whether an image is drawn as channels or as shades
// depends on its values), e.g. "legend: '.' empty, a paddle, b ball, ...".
// Prints nothing for vectors, which carry their names inline.
void render_legend(const EnvSpec& spec, const void* obs, std::ostream& out);

// "3 (right)" for a discrete action the env names, else the values.
std::string action_label(const EnvSpec& spec, const float* action);

// "random" or "const:K" (K an action index, or a value for every dimension of
// a continuous action). Throws std::invalid_argument naming --policy.
PlayPolicy make_simple_policy(const std::string& spec, const ActionSpec& action, std::uint64_t seed);

}  // namespace seedrl
