// Reference policies on a Football drill, for judging a learned agent's
// goals per episode: the engine's own AI playing our player (gfootball's
// "builtin_ai" action) and scripted runs at the goal that sprint towards its
// centre and shoot once the ball passes a line x = X (straight, or turned
// towards the far post first) or once the keeper comes within a reach of the
// ball (straight, or after side-stepping him for a few steps); one row per
// X, reach and side-step, each with how its episodes ended. `--finish`
// swaps the shot for a lofted pass (a chip over the keeper) or a long pass;
// `--shot-presses` lets go of the shot button after a few steps (a weaker shot).
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
constexpr int kTopRight = 4, kRight = 5, kBottomRight = 6, kLongPass = 9, kHighPass = 10, kShot = 12, kSprint = 13,
              kBuiltinAi = 19;

using Policy = std::function<int(const GameState&, int step)>;

// Every step handed to the engine's AI.
Policy engine_ai() {
  return [](const GameState&, int) { return kBuiltinAi; };
}

// Run at the goal's centre (x 1, y 0) with sprint held, shoot past x_shot.
Policy run_and_shoot(float x_shot, int finish) {
  return [x_shot, finish](const GameState& s, int step) {
    if (step == 0) return kSprint;
    const float bx = s.ball[0], by = s.ball[1];
    if (bx >= x_shot) return finish;
    const float slope = -by / std::max(1.0f - bx, 0.05f);  // y is positive downwards
    if (slope < -0.4f) return kTopRight;
    if (slope > 0.4f) return kBottomRight;
    return kRight;
  };
}

// The same run, but past x_shot it turns towards the far post for one step
// and then shoots: the engine aims a shot along the direction held.
Policy run_and_aim(float x_shot, int finish) {
  return
      [x_shot, finish, straight = run_and_shoot(x_shot, finish), aimed = false](const GameState& s, int step) mutable {
        if (step == 0) aimed = false;
        if (s.ball[0] < x_shot) return straight(s, step);
        if (!aimed) {
          aimed = true;
          return s.ball[1] > 0 ? kTopRight : kBottomRight;
        }
        return finish;
      };
}

// The opponents' keeper when he is within `reach` of the ball, else null.
const football::PlayerState* keeper_within(const GameState& s, float reach) {
  for (int i = 0; i < s.right.count; ++i) {
    const auto& p = s.right.players[static_cast<std::size_t>(i)];
    if (p.role == 0 && std::hypot(p.x - s.ball[0], p.y - s.ball[1]) < reach) return &p;
  }
  return nullptr;
}

// The straight run that shoots once the keeper comes within `reach` of the
// ball (or past x = 0.9), whenever that is.
Policy run_until_keeper(float reach, int finish) {
  return [reach, finish, straight = run_and_shoot(0.9f, finish)](const GameState& s, int step) {
    return keeper_within(s, reach) ? finish : straight(s, step);
  };
}

// The straight run until the keeper comes within `reach`, then a side-step
// away from him (diagonally on, for `steps` steps) and the shot.
Policy run_and_sidestep(float reach, int steps, int finish) {
  return [reach, steps, finish, straight = run_and_shoot(0.9f, finish), left = 0, away = kTopRight](const GameState& s,
                                                                                                    int step) mutable {
    if (step == 0) left = -1;
    if (left < 0) {
      const football::PlayerState* keeper = keeper_within(s, reach);
      if (keeper) {
        left = steps;
        away = keeper->y > s.ball[1] ? kTopRight : kBottomRight;  // y is positive downwards
      }
      if (left < 0) return straight(s, step);
    }
    if (left > 0) {
      --left;
      return away;
    }
    return finish;
  };
}

// The policy with its shot button held for `presses` steps and then let go:
// the engine sets a shot's power by how long the button is held (10 ms of
// gauge per engine frame, 100 ms per env step) and fires it on release or
// once the gauge passes 500 ms; 0 keeps the policy as it is. `release` is
// the action pressed from then on.
Policy holding_shot(Policy policy, int presses, int finish, int release) {
  if (presses <= 0) return policy;
  return [policy, presses, finish, release, held = 0](const GameState& s, int step) mutable {
    if (step == 0) held = 0;
    if (held >= presses) return release;
    const int a = policy(s, step);
    if (a == finish) ++held;
    return a;
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
  std::vector<int> sidesteps;
  std::vector<int> presses{0};
  std::string finish = "shot";
  bool no_engine_ai = false;
  std::string release = "right";
  EnvOptions options;
  options.football_rewards = "scoring";
  app.add_option("--scenario", scenario, "gfootball scenario name");
  app.add_option("--episodes", episodes, "Episodes per policy")->check(CLI::Range(1, 1 << 20));
  app.add_option("--shot-lines", shot_lines, "x past which the scripted run shoots (one row each)");
  app.add_option("--keeper-reaches", keeper_reaches,
                 "The keeper's distance from the ball at which the scripted run shoots (one row each)");
  app.add_option("--sidesteps", sidesteps,
                 "Steps of a side-step away from the keeper before the shot, at each keeper reach (one row each)");
  app.add_option(
      "--shot-presses", presses,
      "Steps the shot button is held at each keeper reach, then let go (0: held until it fires; one row each)");
  app.add_option("--release-with", release, "The action that lets go of a held shot (--shot-presses)")
      ->check(CLI::IsMember({"right", "sprint", "idle"}));
  app.add_flag("--no-engine-ai", no_engine_ai, "Skip the engine AI's row");
  app.add_option("--finish", finish, "How the scripted runs end")
      ->check(CLI::IsMember({"shot", "high_pass", "long_pass"}));
  app.add_option("--football-data-dir", options.football_data_dir, "The engine's data folder");
  app.add_option("--football-font", options.football_font, "The engine's font");
  CLI11_PARSE(app, argc, argv);
  const int finish_action = finish == "high_pass" ? kHighPass : finish == "long_pass" ? kLongPass : kShot;
  const int release_action = release == "sprint" ? kSprint : release == "idle" ? 0 : kRight;
  try {
    football::FootballConfig config = football::football_config(scenario, options);
    config.builtin_ai_action = true;
    FootballEnv env(config);
    std::printf("football:%s, %d episodes per policy (reset seeds 1..%d), scripted runs end with %s\n",
                scenario.c_str(), episodes, episodes, finish.c_str());
    if (!no_engine_ai) print_row("engine AI (builtin_ai)", play(env, engine_ai(), episodes));
    for (float x : shot_lines) {
      char name[48];
      std::snprintf(name, sizeof name, "run, shoot past x=%.2f", static_cast<double>(x));
      print_row(name, play(env, run_and_shoot(x, finish_action), episodes));
      std::snprintf(name, sizeof name, "run, aim, shoot past x=%.2f", static_cast<double>(x));
      print_row(name, play(env, run_and_aim(x, finish_action), episodes));
    }
    for (float d : keeper_reaches) {
      char name[48];
      for (int k : presses) {
        if (k > 0)
          std::snprintf(name, sizeof name, "run, shoot at keeper %.2f, %d", static_cast<double>(d), k);
        else
          std::snprintf(name, sizeof name, "run, shoot at keeper %.2f", static_cast<double>(d));
        print_row(name, play(env, holding_shot(run_until_keeper(d, finish_action), k, finish_action, release_action),
                             episodes));
      }
      for (int k : sidesteps) {
        std::snprintf(name, sizeof name, "run, side-step %d at keeper %.2f", k, static_cast<double>(d));
        print_row(name, play(env, run_and_sidestep(d, k, finish_action), episodes));
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "seedrl_football_drills: %s\n", e.what());
    return 1;
  }
  return 0;
}
