// football:<scenario> on the real engine: the rules the golden traces may
// not reach (a goal paying the remaining checkpoints, the end on a change of
// possession, the kick-off side swapping between 11 vs 11 episodes) and the
// observations against the state.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "seedrl/env/football/actions.h"
#include "seedrl/env/football/football_env.h"
#include "seedrl/env/play.h"
#include "seedrl/env/registry.h"

using namespace seedrl;
using football::FootballEnv;
using football::GameMode;

namespace {

constexpr int kRight = 5, kShot = 12, kIdle = 0;

// The env itself, without the registry's frame stack.
std::unique_ptr<FootballEnv> make(const std::string& scenario, const EnvOptions& options = {}) {
  return std::make_unique<FootballEnv>(football::football_config(scenario, options));
}

FootballEnv& as_football(std::unique_ptr<FootballEnv>& env) { return *env; }

StepResult act(Env& env, int a, std::vector<std::uint8_t>& obs) {
  Action action;
  action.index = a;
  return env.step(action, obs.data());
}

}  // namespace

TEST_CASE("football: a goal pays the checkpoints not yet collected", "[football][engine]") {
  auto env = make("academy_empty_goal_close");
  std::vector<std::uint8_t> obs(env->spec().observation.bytes());
  int goals = 0;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    env->reset(seed, obs.data());
    double total = 0;
    StepResult r;
    int t = 0;
    // Run right with the ball, shoot when close: the empty goal is 0.23 away.
    do {
      const float x = as_football(env).state().ball[0];
      r = act(*env, x > 0.85f ? kShot : kRight, obs);
      total += r.reward;
    } while (!r.terminated && !r.truncated && ++t < 400);
    const auto& s = as_football(env).state();
    if (s.left_goals == 1) {
      ++goals;
      CHECK(r.terminated);
      CHECK(std::string(env->episode_outcome()) == "goal");
      // 1 for the goal plus all ten 0.1 rings, however many came before it.
      CHECK(total == Approx(2.0).margin(1e-5));
    }
  }
  CHECK(goals >= 2);  // the scripted run scores
}

TEST_CASE("football: academy episodes end when the other team wins the ball", "[football][engine]") {
  // The keeper and five defenders come for our idle player at the centre.
  auto env = make("academy_run_to_score_with_keeper");
  std::vector<std::uint8_t> obs(env->spec().observation.bytes());
  env->reset(7, obs.data());
  StepResult r;
  int t = 0;
  int owner_before = -1;
  do {
    const auto& s = as_football(env).state();
    if (s.ball_owned_team != -1) owner_before = s.ball_owned_team;
    r = act(*env, kIdle, obs);
  } while (!r.terminated && !r.truncated && ++t < 400);
  const auto& s = as_football(env).state();
  REQUIRE(r.terminated);
  CHECK(owner_before == 0);
  CHECK(s.ball_owned_team == 1);
  CHECK(s.game_mode == GameMode::kNormal);  // not out of play: possession ended it
  CHECK(s.left_goals + s.right_goals == 0);
  const std::string outcome = env->episode_outcome();
  CHECK((outcome == "lost to the keeper" || outcome == "lost to a defender"));

  // The same episode through the registry's wrappers, as `seedrl eval`
  // counts it.
  EnvPtr wrapped = EnvRegistry::builtin().make("football:academy_run_to_score_with_keeper", {});
  const PlayPolicy idle = [](const void*, bool, float, float* a) { a[0] = kIdle; };
  const PlayStats stats = play_episodes(*wrapped, idle, 1, 7);
  REQUIRE(stats.outcomes.size() == 1);
  CHECK(stats.outcomes[0] == std::pair<std::string, int>(outcome, 1));
}

TEST_CASE("football: 11 vs 11 kick-offs alternate sides between episodes", "[football][engine]") {
  // gfootball's builders give the kick-off formation (two forwards on the
  // centre spot) to the left team in even episodes, the right in odd ones.
  auto env = make("11_vs_11_easy_stochastic");
  std::vector<std::uint8_t> obs(env->spec().observation.bytes());
  FootballEnv& f = as_football(env);
  auto nearest_to_ball = [&](const football::TeamState& t) {
    double best = 1e9;
    for (int i = 0; i < t.count; ++i)
      best = std::min(best, static_cast<double>(
                                std::hypot(t.players[i].x - f.state().ball[0], t.players[i].y - f.state().ball[1])));
    return best;
  };
  for (int episode = 2; episode <= 5; ++episode) {
    if (episode == 2)
      env->reset(11, obs.data());
    else
      env->reset(std::nullopt, obs.data());
    INFO("episode " << episode);
    CHECK(f.episode_number() == episode);
    const bool left_kicks = nearest_to_ball(f.state().left) < nearest_to_ball(f.state().right);
    CHECK(left_kicks == (episode % 2 == 0));
  }
}

TEST_CASE("football: the Super Mini Map and simple115v2 show the engine's state", "[football][engine]") {
  EnvOptions smm_options, vec_options;
  vec_options.football_obs = "simple115v2";
  auto smm = make("academy_3_vs_1_with_keeper", smm_options);
  auto vec = make("academy_3_vs_1_with_keeper", vec_options);
  REQUIRE(smm->spec().observation.shape == std::vector<std::int64_t>{72, 96, 4});
  REQUIRE(vec->spec().observation.shape == std::vector<std::int64_t>{115});
  std::vector<std::uint8_t> map(smm->spec().observation.bytes());
  std::vector<std::uint8_t> raw(vec->spec().observation.bytes());
  smm->reset(5, map.data());
  vec->reset(5, raw.data());
  for (int t = 0; t < 30; ++t) {
    const auto& s = as_football(smm).state();
    const auto* v = reinterpret_cast<const float*>(raw.data());
    // Same seed, same actions: the two envs play the same game.
    CHECK(v[88] == s.ball[0]);
    CHECK(v[89] == s.ball[1]);
    // Left players' positions, then the right team's from index 44, -1 padding.
    for (int i = 0; i < 11; ++i) {
      const bool here = i < s.left.count;
      CHECK(v[2 * i] == (here ? s.left.players[i].x : -1.f));
      CHECK(v[44 + 2 * i + 1] == (i < s.right.count ? s.right.players[i].y : -1.f));
    }
    CHECK(v[94 + 1 + s.ball_owned_team] == 1.f);  // ball owner one-hot: none, left, right
    CHECK(v[97 + s.left_controlled] == 1.f);
    CHECK(v[108 + static_cast<int>(s.game_mode)] == 1.f);
    // The map: a 255 at each player's
    // cell, computed here from the SMM's definition (96 x 72 cells over
    // x in [-1, 1], y in [-1/2.25, 1/2.25]).
    auto cell = [&](double x, double y, int plane) {
      int c = static_cast<int>((x + 1) / 2 * 96), r = static_cast<int>((y + 1 / 2.25) / (2 / 2.25) * 72);
      c = std::min(95, std::max(0, c));
      r = std::min(71, std::max(0, r));
      return map[(static_cast<std::size_t>(r) * 96 + c) * 4 + plane];
    };
    int marked = 0;
    for (std::size_t p = 0; p < map.size(); ++p) marked += map[p] == 255 ? 1 : 0;
    for (int i = 0; i < s.left.count; ++i) CHECK(cell(s.left.players[i].x, s.left.players[i].y, 0) == 255);
    for (int i = 0; i < s.right.count; ++i) CHECK(cell(s.right.players[i].x, s.right.players[i].y, 1) == 255);
    CHECK(cell(s.ball[0], s.ball[1], 2) == 255);
    CHECK(cell(s.left.players[s.left_controlled].x, s.left.players[s.left_controlled].y, 3) == 255);
    CHECK(marked <= s.left.count + s.right.count + 2);  // nothing else (players may share a cell)
    const int a = t % 3 == 0 ? kRight : football::kNumActions - 1 - t % 5;
    act(*smm, a, map);
    act(*vec, a, raw);
  }
}

TEST_CASE("football: builtin_ai (action_set_v2) hands our player to the engine's AI", "[football][engine]") {
  constexpr int kBuiltinAi = 19;
  auto plain = make("academy_run_to_score_with_keeper");
  CHECK(plain->spec().action.num_actions == 19);
  std::vector<std::uint8_t> obs(plain->spec().observation.bytes());
  plain->reset(3, obs.data());
  CHECK_THROWS_AS(act(*plain, kBuiltinAi, obs), std::out_of_range);

  football::FootballConfig config = football::football_config("academy_run_to_score_with_keeper", {});
  config.builtin_ai_action = true;
  FootballEnv v2(config);
  REQUIRE(v2.spec().action.num_actions == 20);
  CHECK(v2.spec().action_names.at(19) == "builtin_ai");
  // Our player starts at the centre with the ball: left idle he keeps it
  // there; the engine's AI carries it towards the goal (x = 1).
  auto ball_advance = [&](Env& env, const FootballEnv& f, int a) {
    env.reset(3, obs.data());
    const float start = f.state().ball[0];
    for (int t = 0; t < 15; ++t) REQUIRE_FALSE(act(env, a, obs).terminated);
    return static_cast<double>(f.state().ball[0] - start);
  };
  const double idle = ball_advance(v2, v2, kIdle);
  const double ai = ball_advance(v2, v2, kBuiltinAi);
  CAPTURE(idle, ai);
  CHECK(std::abs(idle) < 0.02);
  CHECK(ai > 0.06);
}
