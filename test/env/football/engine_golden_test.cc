// football:<scenario> against gfootball itself: traces of gfootball's
// unmodified Python environment on the same engine source
// (bench/football/golden_traces.py; format in bench/football/README.md),
// replayed step by step. Per step: the reward (scoring,checkpoints), the end
// of the episode and FNV-1a hashes of both observations, the stacked Super
// Mini Map (uint8[72, 96, 16]) and simple115v2 (float32[115]).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "seedrl/env/football/football_env.h"
#include "seedrl/env/football/observations.h"
#include "seedrl/env/wrappers/frame_stack.h"

using namespace seedrl;
using football::FootballEnv;
namespace fs = std::filesystem;

namespace {

std::uint64_t fnv1a(const std::vector<std::uint8_t>& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ull;
  return h;
}

std::string hex(std::uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

fs::path trace_dir() { return fs::path(__FILE__).parent_path() / "traces"; }

// The env as golden_traces.py makes it: SEED RL's stacked maps. gfootball's
// second env, simple115v2, plays the same game, so its observation is this
// game's state written as simple115v2 (the two representations of one env
// are compared with each other in engine_rules_test.cc).
struct Stacked {
  FootballEnv* env = nullptr;
  EnvPtr stacked;
  std::vector<std::uint8_t> obs, vec = std::vector<std::uint8_t>(football::kSimple115Size * sizeof(float));

  explicit Stacked(const std::string& scenario) {
    auto a = std::make_unique<FootballEnv>(football::football_config(scenario, EnvOptions{}));
    env = a.get();
    stacked = std::make_unique<FrameStack>(std::move(a), 4);
    obs.resize(stacked->spec().observation.bytes());
  }
  void reset(std::uint32_t engine_seed) {
    env->set_next_engine_seed(engine_seed);
    stacked->reset(std::nullopt, obs.data());
    write_vec();
  }
  StepResult step(const Action& a) {
    const StepResult r = stacked->step(a, obs.data());
    write_vec();
    return r;
  }
  void write_vec() { football::write_simple115v2(env->state(), reinterpret_cast<float*>(vec.data())); }
};

struct Replay {
  int steps = 0, episodes = 0, rewarded_steps = 0;
  int stalled_steps = 0;  // steps the stalling rule decided (waiting >= 20)
};

// Replays one trace; fails at the first step that differs, naming it.
Replay replay(const fs::path& file) {
  std::ifstream in(file);
  REQUIRE(in);
  std::string line, scenario;
  std::unique_ptr<Stacked> env;
  Replay out;
  int lineno = 0;
  bool started = false;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    std::string tag;
    f >> tag;
    INFO(file.filename().string() << " line " << lineno << ": " << line);
    if (tag == "scenario") {
      f >> scenario;
      env = std::make_unique<Stacked>(scenario);
    } else if (tag == "seed") {
      continue;
    } else if (tag == "E") {
      REQUIRE(env);
      int episode = 0, reverse = 0;
      std::uint32_t seed = 0;
      std::string smm_hash, vec_hash;
      f >> episode >> seed >> reverse >> smm_hash >> vec_hash;
      env->reset(seed);
      ++out.episodes;
      started = true;
      REQUIRE(env->env->episode_number() == episode);
      REQUIRE(env->env->reverse_team_processing() == (reverse == 1));
      REQUIRE(hex(fnv1a(env->obs)) == smm_hash);
      REQUIRE(hex(fnv1a(env->vec)) == vec_hash);
    } else if (tag == "S") {
      REQUIRE(started);
      int action = 0, score = 0, done = 0;
      double reward = 0;
      std::string smm_hash, vec_hash;
      f >> action >> reward >> score >> done >> smm_hash >> vec_hash;
      Action a;
      a.index = action;
      out.stalled_steps += env->env->waiting_for_game_count() >= 20 ? 1 : 0;
      const StepResult r = env->step(a);
      const auto& s = env->env->state();
      INFO("ours: ball " << s.ball[0] << " " << s.ball[1] << " " << s.ball[2] << " score " << s.left_goals << "-"
                         << s.right_goals << " mode " << static_cast<int>(s.game_mode) << " owner " << s.ball_owned_team
                         << " active " << s.left_controlled);
      REQUIRE(r.reward == Approx(reward).margin(1e-6));
      REQUIRE((r.terminated || r.truncated) == (done == 1));
      REQUIRE(hex(fnv1a(env->obs)) == smm_hash);
      REQUIRE(hex(fnv1a(env->vec)) == vec_hash);
      ++out.steps;
      out.rewarded_steps += reward != 0 ? 1 : 0;
      if (done == 1) started = false;
    } else {
      FAIL("unknown line");
    }
  }
  return out;
}

// Every trace of `scenario` (one per seed), replayed; the steps the
// stalling rule decided, summed.
int replay_all(const std::string& scenario) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(trace_dir()))
    if (e.path().extension() == ".trace" && e.path().filename().string().rfind(scenario + "-seed", 0) == 0)
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 2);
  int stalled = 0;
  for (const fs::path& file : files) {
    const Replay r = replay(file);
    INFO(file.filename().string());
    CHECK(r.steps >= 1000);
    CHECK(r.episodes >= 1);
    stalled += r.stalled_steps;
  }
  return stalled;
}

}  // namespace

TEST_CASE("football golden traces: academy_empty_goal_close", "[football][engine]") {
  replay_all("academy_empty_goal_close");
}
TEST_CASE("football golden traces: academy_run_to_score_with_keeper", "[football][engine]") {
  replay_all("academy_run_to_score_with_keeper");
}
TEST_CASE("football golden traces: academy_3_vs_1_with_keeper", "[football][engine]") {
  replay_all("academy_3_vs_1_with_keeper");
}
TEST_CASE("football golden traces: 11_vs_11_easy_stochastic", "[football][engine]") {
  // Set pieces our team held for 20 steps and more: the stalling rule's
  // passes and walks, matched.
  CHECK(replay_all("11_vs_11_easy_stochastic") > 0);
}
