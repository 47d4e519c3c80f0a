// One Google Research Football engine (gfootball_engine's GameEnv) behind a
// small engine-free interface: start a scenario with a seed, set our agent's
// action, step, read the state. This is what gfootball's Python module and
// FootballEnvCore do with the engine; the episode rules and rewards live in
// rules.h, the observations in observations.h.
//
// The engine keeps its current game in a thread-local pointer: every call
// here makes this game current first, so any thread may drive any game (one
// thread at a time per game). Starting engines is serialised process-wide.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "seedrl/env/football/game_state.h"
#include "seedrl/env/football/scenario.h"

namespace seedrl::football {

struct EnginePaths {
  std::string data_dir;  // the engine's data folder (databases/, media/)
  std::string font;      // AlegreyaSansSC-ExtraBold.ttf
};

// Whether this binary was built with the engine.
bool engine_available();

class EngineGame {
 public:
  // Starts an engine (about 0.5 s: it loads its data). Throws
  // std::invalid_argument when the build has no engine. The paths must have
  // been checked (data_check.h): the engine crashes on a missing file.
  explicit EngineGame(const EnginePaths& paths);
  ~EngineGame();
  EngineGame(const EngineGame&) = delete;
  EngineGame& operator=(const EngineGame&) = delete;

  // Starts `scenario` with `left` and `right` line-ups (already swapped for
  // the episode), one controlled left agent, and steps until the ball is in
  // play, as FootballEnvCore.reset does.
  void reset(const Scenario& scenario, const std::vector<PlayerSetup>& left, const std::vector<PlayerSetup>& right,
             std::uint32_t engine_seed, bool reverse_team_processing);
  // The engine's action number (gfootball_actions.h) for left agent 0.
  void act(int engine_action);
  // Steps until the ball is in play again (10 physics frames per step).
  void step();
  // The state after the last reset or step.
  const GameState& state() const { return state_; }
  // The engine's count of steps spent waiting for a set piece to be taken
  // (the stalling rule reads and resets it through here).
  int& waiting_for_game_count();

 private:
  bool read();  // fills state_; returns the engine's is_in_play
  struct Impl;
  std::unique_ptr<Impl> impl_;
  GameState state_;
};

}  // namespace seedrl::football
