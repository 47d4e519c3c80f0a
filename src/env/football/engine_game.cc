#include "seedrl/env/football/engine_game.h"

#include <stdexcept>

#if SEEDRL_WITH_FOOTBALL
#include <cstdlib>
#include <mutex>

#include "game_env.hpp"
#include "gametask.hpp"
#endif

namespace seedrl::football {

#if SEEDRL_WITH_FOOTBALL

bool engine_available() { return true; }

namespace {

// Engines start one at a time: start_game sets process-wide state (the
// font's environment variable, signal handlers, the engine's singletons).
std::mutex& start_mutex() {
  static std::mutex m;
  return m;
}

// Python loops forever when the engine never reports the ball in play; a
// bound turns such a scenario into an error (real games take a few steps).
constexpr int kMaxStepsOutOfPlay = 10000;

e_PlayerRole engine_role(Role r) { return static_cast<e_PlayerRole>(static_cast<int>(r)); }

void copy_team(const std::vector<PlayerInfo>& from, TeamState& to) {
  to.count = static_cast<int>(std::min<std::size_t>(from.size(), kMaxTeamPlayers));
  to.designated = -1;
  for (int i = 0; i < to.count; ++i) {
    const PlayerInfo& p = from[static_cast<std::size_t>(i)];
    PlayerState& q = to.players[static_cast<std::size_t>(i)];
    q.x = p.player_position.env_coord(0);
    q.y = p.player_position.env_coord(1);
    q.dx = p.player_direction.env_coord(0);
    q.dy = p.player_direction.env_coord(1);
    q.tired = p.tired_factor;
    q.active = p.is_active;
    q.yellow_card = p.has_card;
    q.role = static_cast<std::int8_t>(p.role);
    if (p.designated_player) to.designated = i;
  }
}

}  // namespace

struct EngineGame::Impl {
  GameEnv game;
  SharedInfo info;  // reused: its vectors keep their capacity across steps
};

EngineGame::EngineGame(const EnginePaths& paths) : impl_(std::make_unique<Impl>()) {
  GameEnv& g = impl_->game;
  g.game_config.render = false;
  g.game_config.physics_steps_per_frame = 10;
  g.game_config.data_dir = paths.data_dir;
  std::lock_guard lock(start_mutex());
  // The engine takes its data folder from $GFOOTBALL_DATA_DIR over the config
  // and its font only from $GFOOTBALL_FONT: both point at the checked paths.
  ::setenv("GFOOTBALL_DATA_DIR", paths.data_dir.c_str(), 1);
  ::setenv("GFOOTBALL_FONT", paths.font.c_str(), 1);
  g.start_game();
  g.state = game_running;
}

EngineGame::~EngineGame() = default;

void EngineGame::reset(const Scenario& s, const std::vector<PlayerSetup>& left, const std::vector<PlayerSetup>& right,
                       std::uint32_t engine_seed, bool reverse_team_processing) {
  // A fresh config each time: the engine scales its ball position in place.
  auto c = ScenarioConfig::make();
  c->game_duration = s.game_duration;
  c->second_half = s.second_half;
  c->left_team_difficulty = s.left_team_difficulty;
  c->right_team_difficulty = s.right_team_difficulty;
  c->deterministic = s.deterministic;
  c->offsides = s.offsides;
  c->end_episode_on_score = s.end_episode_on_score;
  c->end_episode_on_out_of_play = s.end_episode_on_out_of_play;
  c->end_episode_on_possession_change = s.end_episode_on_possession_change;
  c->control_all_players = s.control_all_players;
  c->ball_position.coords[0] = s.ball_x;
  c->ball_position.coords[1] = s.ball_y;
  for (const PlayerSetup& p : left) c->left_team.emplace_back(p.x, p.y, engine_role(p.role), p.lazy, p.controllable);
  for (const PlayerSetup& p : right) c->right_team.emplace_back(p.x, p.y, engine_role(p.role), p.lazy, p.controllable);
  // scenario_builder.py: a team without players gets a lazy goalkeeper.
  if (c->left_team.empty()) c->left_team.emplace_back(-1.0f, 0.42f, e_PlayerRole_GK, true, true);
  if (c->right_team.empty()) c->right_team.emplace_back(-1.0f, 0.42f, e_PlayerRole_GK, true, true);
  c->real_time = false;
  c->left_agents = 1;
  c->right_agents = 0;
  if (!s.deterministic) c->game_engine_random_seed = engine_seed;
  c->reverse_team_processing = reverse_team_processing;

  GameEnv& g = impl_->game;
  ContextHolder current(&g);
  g.context->step = -1;
  GetTracker()->setDisabled(true);
  g.reset(*c, false);
  GetTracker()->setDisabled(false);
  g.state = game_running;
  for (int i = 0; !read(); ++i) {
    if (i == kMaxStepsOutOfPlay)
      throw std::runtime_error("football: the engine never put the ball in play after a reset");
    g.step();
  }
}

void EngineGame::act(int engine_action) {
  ContextHolder current(&impl_->game);
  impl_->game.action(engine_action, /*left_team=*/true, /*player=*/0);
}

void EngineGame::step() {
  ContextHolder current(&impl_->game);
  for (int i = 0;; ++i) {
    impl_->game.step();
    if (read()) return;
    if (i == kMaxStepsOutOfPlay) throw std::runtime_error("football: the engine never put the ball back in play");
  }
}

int& EngineGame::waiting_for_game_count() { return impl_->game.waiting_for_game_count; }

bool EngineGame::read() {
  // GameEnv::get_info without its copy: the match writes into our SharedInfo.
  SharedInfo& info = impl_->info;
  GetTracker()->setDisabled(true);
  GetGameTask()->GetMatch()->GetState(&info);
  GetTracker()->setDisabled(false);
  GameState& s = state_;
  for (int i = 0; i < 3; ++i) {
    s.ball[static_cast<std::size_t>(i)] = info.ball_position.env_coord(i);
    s.ball_direction[static_cast<std::size_t>(i)] = info.ball_direction.env_coord(i);
    s.ball_rotation[static_cast<std::size_t>(i)] = info.ball_rotation.env_coord(i);
  }
  copy_team(info.left_team, s.left);
  copy_team(info.right_team, s.right);
  s.left_controlled = info.left_controllers.empty() ? -1 : info.left_controllers[0].controlled_player;
  s.right_controlled = info.right_controllers.empty() ? -1 : info.right_controllers[0].controlled_player;
  s.left_goals = info.left_goals;
  s.right_goals = info.right_goals;
  s.game_mode = static_cast<GameMode>(info.game_mode);
  s.ball_owned_team = info.ball_owned_team;
  s.ball_owned_player = info.ball_owned_player;
  s.step = impl_->game.context->step;
  s.steps_left = GetScenarioConfig().game_duration - s.step;
  return info.is_in_play;
}

#else  // built without the engine

bool engine_available() { return false; }

struct EngineGame::Impl {};

EngineGame::EngineGame(const EnginePaths&) {
  throw std::invalid_argument(
      "seedrl was built without Google Research Football's engine: run third_party/install-football.sh SRC and "
      "reconfigure, see docs/football.md");
}
EngineGame::~EngineGame() = default;
void EngineGame::reset(const Scenario&, const std::vector<PlayerSetup>&, const std::vector<PlayerSetup>&, std::uint32_t,
                       bool) {}
void EngineGame::act(int) {}
void EngineGame::step() {}
int& EngineGame::waiting_for_game_count() {
  static int none = 0;
  return none;
}
bool EngineGame::read() { return false; }

#endif

}  // namespace seedrl::football
