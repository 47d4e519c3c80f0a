#include "seedrl/env/football/football_env.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "seedrl/env/football/actions.h"
#include "seedrl/env/football/data_check.h"
#include "seedrl/env/football/observations.h"
#include "seedrl/env/render/football_draw.h"

namespace seedrl::football {

namespace {

std::string scenario_list() {
  std::string all;
  for (const Scenario& s : scenarios()) all += (all.empty() ? "" : ", ") + s.name;
  return all;
}

}  // namespace

FootballConfig football_config(const std::string& name, const EnvOptions& o) {
  FootballConfig c;
  c.scenario = find_scenario(name);
  if (c.scenario == nullptr)
    throw std::invalid_argument("football:" + name + ": no such scenario (" + scenario_list() + ")");
  if (o.football_obs == "smm" || o.football_obs == "extracted")
    c.representation = Representation::kSmm;
  else if (o.football_obs == "simple115v2")
    c.representation = Representation::kSimple115v2;
  else
    throw std::invalid_argument("--football-obs must be smm or simple115v2, not '" + o.football_obs + "'");
  if (o.football_rewards == "scoring,checkpoints" || o.football_rewards == "checkpoints,scoring")
    c.checkpoint_rewards = true;
  else if (o.football_rewards == "scoring")
    c.checkpoint_rewards = false;
  else
    throw std::invalid_argument("--football-rewards must be scoring,checkpoints or scoring, not '" +
                                o.football_rewards + "'");
  if (o.sticky_action_prob >= 0)
    throw std::invalid_argument("--sticky-action-prob does not apply to football:" + name +
                                " (the engine's actions are not sticky that way)");
  if (o.football_shot_hold < 1 || o.football_shot_hold > 30)
    throw std::invalid_argument("--football-shot-hold must be in [1, 30], not " + std::to_string(o.football_shot_hold));
  c.shot_hold = o.football_shot_hold;
  if (!(o.football_shot_hold_prob >= 0 && o.football_shot_hold_prob <= 1))
    throw std::invalid_argument("--football-shot-hold-prob must be in [0, 1], not " +
                                std::to_string(o.football_shot_hold_prob));
  c.shot_hold_prob = o.football_shot_hold_prob;
  if (!(o.football_shot_hold_prob_final <= 1))  // NaN too; < 0 is "unset"
    throw std::invalid_argument("--football-shot-hold-prob-final must be in [0, 1], not " +
                                std::to_string(o.football_shot_hold_prob_final));
  c.shot_hold_prob_final = o.football_shot_hold_prob_final;
  c.paths = engine_paths(o.football_data_dir, o.football_font);
  return c;
}

int football_frame_stack(const EnvOptions& o) { return o.football_obs == "simple115v2" ? 1 : 4; }

EnvSpec football_spec(const FootballConfig& c) {
  EnvSpec spec;
  spec.name = "football:" + c.scenario->name;
  if (c.representation == Representation::kSmm) {
    spec.observation = ArraySpec{{kSmmHeight, kSmmWidth, kSmmPlanes}, DType::kUInt8};
    spec.observation_names = {"left_team", "right_team", "ball", "active"};
  } else {
    spec.observation = ArraySpec{{kSimple115Size}, DType::kFloat32};
  }
  spec.action = ActionSpec::discrete(kNumActions + (c.builtin_ai_action ? 1 : 0));
  for (const ActionInfo& a : kActions) spec.action_names.emplace_back(a.name);
  if (c.builtin_ai_action) spec.action_names.emplace_back(kBuiltinAi.name);
  spec.max_episode_steps = c.scenario->game_duration;
  return spec;
}

FootballEnv::FootballEnv(const FootballConfig& config) : config_(config), spec_(football_spec(config)) {
  check_engine_paths(config_.paths);
  game_ = std::make_unique<EngineGame>(config_.paths);
}

FootballEnv::~FootballEnv() = default;

void FootballEnv::reset(std::optional<std::uint64_t> seed, void* obs) {
  if (seed) {
    rng_.reseed(*seed);
    hold_rng_.reseed(derive_seed(*seed, 1));
    episode_number_ = 2;
    reverse_.reset();
  }
  // random.randint(0, 2000000000), as scenario_builder.py draws it.
  std::uint32_t engine_seed = static_cast<std::uint32_t>(rng_.below(2000000001u));
  if (next_engine_seed_) engine_seed = *std::exchange(next_engine_seed_, std::nullopt);
  start_episode(engine_seed, obs);
}

void FootballEnv::start_episode(std::uint32_t engine_seed, void* obs) {
  const Scenario& s = *config_.scenario;
  // gfootball fixes reverse_team_processing from the seed of the config's
  // first scenario and keeps it for the env's life.
  if (!reverse_) reverse_ = engine_seed % 2 == 1;
  const bool swap = s.swap_each_episode && episode_number_ % 2 == 1;
  game_->reset(s, swap ? s.right : s.left, swap ? s.left : s.right, engine_seed, *reverse_);
  ++episode_number_;
  rules_.reset();
  checkpoints_.reset();
  const double p = shot_hold_prob();
  episode_shot_hold_ = p >= 1 || hold_rng_.bernoulli(p) ? config_.shot_hold : 1;
  write_observation(obs);
}

double FootballEnv::shot_hold_prob() const {
  if (config_.shot_hold_prob_final < 0) return config_.shot_hold_prob;
  const double t = std::clamp(progress_, 0.0, 1.0);
  return config_.shot_hold_prob + (config_.shot_hold_prob_final - config_.shot_hold_prob) * t;
}

StepResult FootballEnv::step(const Action& action, void* obs) {
  const int num_actions = spec_.action.num_actions;
  if (action.index < 0 || action.index >= num_actions)
    throw std::out_of_range("football: action " + std::to_string(action.index) + " is not in [0, " +
                            std::to_string(num_actions) + ")");
  const int engine_action =
      action.index < kNumActions ? kActions[static_cast<std::size_t>(action.index)].engine : kBuiltinAi.engine;
  int& waiting = game_->waiting_for_game_count();
  // With --football-shot-hold N, a shot keeps its button down for N engine
  // steps (the engine fills the shot's power gauge while it is held), as
  // one agent step: rewards summed, the episode's end ending it early;
  // with --football-shot-hold-prob P only in a share P of the episodes.
  const int engine_steps = engine_action == kEngineShot ? episode_shot_hold_ : 1;
  StepResult r;
  for (int i = 0; i < engine_steps && !r.terminated && !r.truncated; ++i) {
    game_->act(stalling_rule(engine_action, waiting, game_->state()));
    game_->step();
    const GameState& now = game_->state();
    const EpisodeRules::Outcome o = rules_.after_step(*config_.scenario, now, waiting);
    r.reward +=
        config_.checkpoint_rewards ? checkpoints_.reward(o.score_reward, now) : static_cast<float>(o.score_reward);
    r.terminated = o.ended_by_rule;
    r.truncated = !o.ended_by_rule && o.ended_by_time;
  }
  write_observation(obs);
  return r;
}

void FootballEnv::write_observation(void* obs) const {
  if (config_.representation == Representation::kSmm)
    write_smm(game_->state(), static_cast<std::uint8_t*>(obs));
  else
    write_simple115v2(game_->state(), static_cast<float*>(obs));
}

bool FootballEnv::render_rgb(RgbImage& out) {
  football_draw::pitch(game_->state(), out);
  return true;
}

}  // namespace seedrl::football
