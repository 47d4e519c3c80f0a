// Reference policies on a Football drill, for judging a learned agent's
// goals per episode: the engine's own AI playing our player (gfootball's
// "builtin_ai" action) and scripted runs at the goal that sprint towards its
// centre and shoot once the ball passes a line x = X (straight, or turned
// towards the far post first) or once the keeper comes within a reach of the
// ball; one row per X and per reach, each with how its episodes ended.
//   build/bench/seedrl_football_drills --scenario academy_run_to_score_with_keeper --episodes 200
// Each policy plays the same episodes: reset seeds 1..N, the env's own
// engine-seed draw, the scoring reward only (goals per episode).
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "seedrl/env/football/football_env.h"

using namespace seedrl;
using football::FootballEnv;
using football::GameState;

namespace {

// Indices in the 19-action set (football/actions.h), and the 20th.
constexpr int kTopRight = 4, kRight = 5, kBottomRight = 6, kShot = 12, kSprint = 13, kBuiltinAi = 19;

using Policy = std::function<int(const GameState&, int step)>;

// Every step handed to the engine's AI.
Policy engine_ai() {
  return [](const GameState&, int) { return kBuiltinAi; };
}

// Run at the goal's centre (x 1, y 0) with sprint held, shoot past x_shot.
Policy run_and_shoot(float x_shot) {
  return [x_shot](const GameState& s, int step) {
    if (step == 0) return kSprint;
    const float bx = s.ball[0], by = s.ball[1];
    if (bx >= x_shot) return kShot;
    const float slope = -by / std::max(1.0f - bx, 0.05f);  // y is positive downwards
    if (slope < -0.4f) return kTopRight;
    if (slope > 0.4f) return kBottomRight;
    return kRight;
  };
}

// The same run, but past x_shot it turns towards the far post for one step
// and then shoots: the engine aims a shot along the direction held.
Policy run_and_aim(float x_shot) {
  return [x_shot, straight = run_and_shoot(x_shot), aimed = false](const GameState& s, int step) mutable {
    if (step == 0) aimed = false;
    if (s.ball[0] < x_shot) return straight(s, step);
    if (!aimed) {
      aimed = true;
      return s.ball[1] > 0 ? kTopRight : kBottomRight;
    }
    return kShot;
  };
}

// The straight run that shoots once the keeper comes within `reach` of the
// ball (or past x = 0.9), whenever that is.
Policy run_until_keeper(float reach) {
  return [reach, straight = run_and_shoot(0.9f)](const GameState& s, int step) {
    for (int i = 0; i < s.right.count; ++i) {
      const auto& p = s.right.players[static_cast<std::size_t>(i)];
      if (p.role == 0 && std::hypot(p.x - s.ball[0], p.y - s.ball[1]) < reach) return kShot;
    }
    return straight(s, step);
  };
}

struct Tally {
  int episodes = 0, goals = 0;
  long steps = 0;
  std::map<std::string, int> ended;  // football::episode_outcome's phrases
};

Tally play(FootballEnv& env, const Policy& policy, int episodes) {
  std::vector<std::uint8_t> obs(env.spec().observation.bytes());
  Tally t;
  for (int e = 1; e <= episodes; ++e) {
    env.reset(static_cast<std::uint64_t>(e), obs.data());
    StepResult r;
    int step = 0;
    do {
      Action a;
      a.index = policy(env.state(), step);
      r = env.step(a, obs.data());
      ++step;
    } while (!r.terminated && !r.truncated);
    ++t.episodes;
    t.goals += env.state().left_goals;
    ++t.ended[env.episode_outcome()];
    t.steps += step;
  }
  return t;
}

void print_row(const std::string& name, const Tally& t) {
  const double n = t.episodes;
  const double p = t.goals / n;
  // Goals per academy episode are 0 or 1: the binomial standard error.
  const double se = std::sqrt(std::max(p * (1 - p), 0.0) / n);
  std::string ended;
  for (const auto& [how, count] : t.ended) {
    char part[64];
    std::snprintf(part, sizeof part, "%s%s %.3f", ended.empty() ? "" : ", ", how.c_str(), count / n);
    ended += part;
  }
  std::printf("%-28s %5d episodes  goals/episode %.3f +- %.3f  mean length %.1f  ended: %s\n", name.c_str(), t.episodes,
              p, se, t.steps / n, ended.c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Reference policies' goals per episode on a Football drill"};
  std::string scenario = "academy_run_to_score_with_keeper";
  int episodes = 100;
  std::vector<float> shot_lines{0.6f, 0.7f, 0.8f, 0.9f};
  std::vector<float> keeper_reaches{0.15f, 0.25f, 0.35f};
  EnvOptions options;
  options.football_rewards = "scoring";
  app.add_option("--scenario", scenario, "gfootball scenario name");
  app.add_option("--episodes", episodes, "Episodes per policy")->check(CLI::Range(1, 1 << 20));
  app.add_option("--shot-lines", shot_lines, "x past which the scripted run shoots (one row each)");
  app.add_option("--keeper-reaches", keeper_reaches,
                 "The keeper's distance from the ball at which the scripted run shoots (one row each)");
  app.add_option("--football-data-dir", options.football_data_dir, "The engine's data folder");
  app.add_option("--football-font", options.football_font, "The engine's font");
  CLI11_PARSE(app, argc, argv);
  try {
    football::FootballConfig config = football::football_config(scenario, options);
    config.builtin_ai_action = true;
    FootballEnv env(config);
    std::printf("football:%s, %d episodes per policy (reset seeds 1..%d)\n", scenario.c_str(), episodes, episodes);
    print_row("engine AI (builtin_ai)", play(env, engine_ai(), episodes));
    for (float x : shot_lines) {
      char name[48];
      std::snprintf(name, sizeof name, "run, shoot past x=%.2f", static_cast<double>(x));
      print_row(name, play(env, run_and_shoot(x), episodes));
      std::snprintf(name, sizeof name, "run, aim, shoot past x=%.2f", static_cast<double>(x));
      print_row(name, play(env, run_and_aim(x), episodes));
    }
    for (float d : keeper_reaches) {
      char name[48];
      std::snprintf(name, sizeof name, "run, shoot at keeper %.2f", static_cast<double>(d));
      print_row(name, play(env, run_until_keeper(d), episodes));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "seedrl_football_drills: %s\n", e.what());
    return 1;
  }
  return 0;
}
