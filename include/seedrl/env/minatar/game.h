// Shared base for the MinAtar games (Young & Tian 2019; reference:
// github.com/kenjyoung/MinAtar, minatar/environment.py). It owns what every
// game shares: the 6-action set, sticky actions, the env's random stream and
// writing the 10x10xC uint8 observation ([y][x][c], values 0/1). A game only
// resets its state, advances it one frame and draws it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "seedrl/env/env.h"
#include "seedrl/env/registry.h"
#include "seedrl/env/render.h"
#include "seedrl/util/rng.h"

namespace seedrl::minatar {

constexpr int kGridSize = 10;
constexpr int kNumActions = 6;

// The reference's action_map ['n','l','u','r','d','f']; every game takes all six.
enum ActionId : int { kNoop = 0, kLeft = 1, kUp = 2, kRight = 3, kDown = 4, kFire = 5 };

// Write access to one observation: cells are set, never cleared (the base
// zeroes the buffer before a game draws into it).
class Frame {
 public:
  Frame(std::uint8_t* data, int channels) : data_(data), channels_(channels) {}
  void set(int y, int x, int channel) { data_[(y * kGridSize + x) * channels_ + channel] = 1; }

 private:
  std::uint8_t* data_;
  int channels_;
};

// What one frame of a game yields (the reference's act() returns (r, terminal)).
struct Outcome {
  int reward = 0;
  bool terminal = false;
};

class Game : public Env, public RgbRenderable {
 public:
  // `name` is the registered name ("minatar:breakout"); `channels` names the
  // observation's channels as the reference's channels dict does, in order.
  Game(std::string name, std::vector<std::string> channels, const EnvOptions& options);

  const EnvSpec& spec() const override { return spec_; }
  void reset(std::optional<std::uint64_t> seed, void* obs) final;
  StepResult step(const Action& action, void* obs) final;

  // The action actually applied on the last step (after stickiness).
  int last_action() const { return last_action_; }
  bool terminal() const { return terminal_; }
  double sticky_action_prob() const { return sticky_prob_; }
  bool difficulty_ramping() const { return ramping_; }
  // Draws the current state into `obs` (spec().observation.bytes() bytes).
  void write_obs(void* obs) const;
  // The reference GUI's colours (render/minatar_draw.h).
  bool render_rgb(RgbImage& out) override;
  double render_fps() const override;

 protected:
  // Puts the game in its start state, drawing from rng().
  virtual void reset_game() = 0;
  // Advances one frame with an action id in [0, 6), already made sticky.
  virtual Outcome act(int action) = 0;
  // Sets the cells of the current state.
  virtual void draw(Frame& frame) const = 0;

  Rng& rng() { return rng_; }

 private:
  EnvSpec spec_;
  Rng rng_;
  double sticky_prob_;
  bool ramping_;
  int last_action_ = kNoop;
  bool terminal_ = false;
  std::vector<std::uint8_t> picture_obs_;  // render_rgb's scratch observation
};

}  // namespace seedrl::minatar
