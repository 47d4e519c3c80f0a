// football:<scenario>: Google Research Football as SEED RL trains it
// (seed_rl/football/env.py): one agent steering the left team's active
// player with the 19 default actions, the Super Mini Map observation (the
// registry stacks 4: uint8[72, 96, 16]) and the scoring,checkpoints reward.
// Each episode starts the scenario with a fresh engine seed drawn from the
// env's own random stream, the way gfootball draws one per episode; the
// 1 vs 1, 5 vs 5 and 11 vs 11 scenarios alternate the kick-off side between
// episodes (gfootball's episode numbers: the first is 2, even). A goal, the
// ball going out of play or a change of possession end academy episodes
// (terminated); the game's duration truncates. See docs/football.md.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "seedrl/env/env.h"
#include "seedrl/env/episode_outcome.h"
#include "seedrl/env/football/engine_game.h"
#include "seedrl/env/football/rules.h"
#include "seedrl/env/football/scenario.h"
#include "seedrl/env/registry.h"
#include "seedrl/env/render.h"
#include "seedrl/env/training_progress.h"
#include "seedrl/util/rng.h"

namespace seedrl::football {

enum class Representation { kSmm, kSimple115v2 };

struct FootballConfig {
  const Scenario* scenario = nullptr;
  Representation representation = Representation::kSmm;
  bool checkpoint_rewards = true;  // "scoring,checkpoints"; false: "scoring"
  // gfootball's action_set_v2: the 19 actions and "builtin_ai" (index 19),
  // which lets the engine's own AI play the step (a reference policy).
  bool builtin_ai_action = false;
  // Engine steps `shot` keeps the button pressed, as one agent step whose
  // rewards are summed (--football-shot-hold; 1: gfootball's action).
  int shot_hold = 1;
  // Chance each episode uses shot_hold (--football-shot-hold-prob); the
  // other episodes hold a shot for one step, drawn from the env's seed.
  double shot_hold_prob = 1;
  // >= 0: the chance at the run's end, reached linearly over its progress
  // (TrainingProgress); < 0: shot_hold_prob throughout.
  double shot_hold_prob_final = -1;
  EnginePaths paths;
};

// The config of football:<scenario> under `options`, its data folder and
// font checked. Throws std::invalid_argument with one line naming the
// scenario, flag or path at fault.
FootballConfig football_config(const std::string& scenario, const EnvOptions& options);
EnvSpec football_spec(const FootballConfig& config);
// The frame stack the registry applies: 4 Super Mini Maps, 1 vector.
int football_frame_stack(const EnvOptions& options);

class FootballEnv final : public Env, public RgbRenderable, public EpisodeOutcome, public TrainingProgress {
 public:
  explicit FootballEnv(const FootballConfig& config);
  ~FootballEnv() override;

  const EnvSpec& spec() const override { return spec_; }
  void reset(std::optional<std::uint64_t> seed, void* obs) override;
  StepResult step(const Action& action, void* obs) override;
  bool render_rgb(RgbImage& out) override;
  double render_fps() const override { return 10; }  // 10 steps a second of game time
  const char* episode_outcome() const override { return football::episode_outcome(*config_.scenario, state()); }
  std::span<const char* const> episode_outcomes() const override {
    return football::episode_outcomes(*config_.scenario);
  }
  void set_training_progress(double fraction) override { progress_ = fraction; }

  // The next reset starts its episode with this engine seed instead of a
  // drawn one (the golden-trace test replays gfootball's seeds).
  void set_next_engine_seed(std::uint32_t engine_seed) { next_engine_seed_ = engine_seed; }
  const GameState& state() const { return game_->state(); }
  // Steps the game has waited for a set piece to be taken (the stalling
  // rule takes over our agent's action from 20 on).
  int waiting_for_game_count() const { return game_->waiting_for_game_count(); }
  // gfootball's number of the episode under way (2 for the first).
  int episode_number() const { return episode_number_ - 1; }
  bool reverse_team_processing() const { return reverse_.value_or(false); }
  // Engine steps `shot` holds the button in the episode under way.
  int episode_shot_hold() const { return episode_shot_hold_; }
  // The chance the next episode holds shots, at the run's progress.
  double shot_hold_prob() const;

 private:
  void start_episode(std::uint32_t engine_seed, void* obs);
  void write_observation(void* obs) const;

  FootballConfig config_;
  EnvSpec spec_;
  std::unique_ptr<EngineGame> game_;
  Rng rng_;
  Rng hold_rng_;  // apart from rng_, so the engine seeds stay gfootball's
  int episode_shot_hold_ = 1;
  double progress_ = 0;  // of the training run, as its actors last said
  EpisodeRules rules_;
  CheckpointReward checkpoints_;
  int episode_number_ = 2;       // of the next episode
  std::optional<bool> reverse_;  // reverse_team_processing: set by the first episode's seed, then kept
  std::optional<std::uint32_t> next_engine_seed_;
};

}  // namespace seedrl::football
