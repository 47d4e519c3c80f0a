// What football:<scenario> adds to each engine step, without the engine: the
// stalling rule, the episode rules, the checkpoint reward, the Super Mini Map
// (or simple115v2) written into the buffer, and the registry's 4-frame stack,
// on an 11 vs 11 state. Compare with the engine's step (seedrl bench --env
// football:...: milliseconds) for the wrapper's share of a step.
#include <cstdint>
#include <memory>
#include <vector>

#include <benchmark/benchmark.h>

#include "seedrl/env/football/actions.h"
#include "seedrl/env/football/observations.h"
#include "seedrl/env/football/rules.h"
#include "seedrl/env/wrappers/frame_stack.h"
#include "seedrl/util/rng.h"

namespace {

using namespace seedrl;
using namespace seedrl::football;

GameState eleven_a_side(Rng& rng) {
  GameState s;
  s.left.count = s.right.count = kMaxTeamPlayers;
  for (TeamState* t : {&s.left, &s.right})
    for (PlayerState& p : t->players) {
      p.x = static_cast<float>(rng.uniform(-1, 1));
      p.y = static_cast<float>(rng.uniform(-0.42, 0.42));
    }
  s.ball = {0.3f, 0.1f, 0.1f};
  s.left_controlled = 3;
  s.ball_owned_team = 0;
  s.ball_owned_player = 3;
  return s;
}

// The state moves a little each step so the marks change.
void nudge(GameState& s, Rng& rng) {
  for (PlayerState& p : s.left.players) p.x += static_cast<float>(rng.uniform(-0.01, 0.01));
  s.ball[0] = s.left.players[3].x;
}

// An Env that only writes the map of a state it is given: FrameStack wraps
// it as the registry wraps the real one.
class MapSource final : public Env {
 public:
  explicit MapSource(const GameState* s) : s_(s) {
    spec_.observation = ArraySpec{{kSmmHeight, kSmmWidth, kSmmPlanes}, DType::kUInt8};
    spec_.action = ActionSpec::discrete(kNumActions);
  }
  const EnvSpec& spec() const override { return spec_; }
  void reset(std::optional<std::uint64_t>, void* obs) override { write_smm(*s_, static_cast<std::uint8_t*>(obs)); }
  StepResult step(const Action&, void* obs) override {
    write_smm(*s_, static_cast<std::uint8_t*>(obs));
    return {};
  }

 private:
  const GameState* s_;
  EnvSpec spec_;
};

// The per-step work besides the observation: the stalling rule on a drawn
// action, the state moving on, the episode rules and the checkpoint reward.
struct Rules {
  Rng rng{3};
  GameState s = eleven_a_side(rng);
  Scenario scenario;
  EpisodeRules rules;
  CheckpointReward checkpoints;
  int waiting = 0;

  void step() {
    benchmark::DoNotOptimize(stalling_rule(kActions[rng.below(kNumActions)].engine, waiting, s));
    nudge(s, rng);
    const auto o = rules.after_step(scenario, s, waiting);
    benchmark::DoNotOptimize(checkpoints.reward(o.score_reward, s));
  }
};

void BM_FootballWrapperSmm(benchmark::State& state) {
  Rules r;
  FrameStack stack(std::make_unique<MapSource>(&r.s), 4);
  std::vector<std::uint8_t> obs(stack.spec().observation.bytes());
  stack.reset(1, obs.data());
  for (auto _ : state) {
    r.step();
    stack.step(Action{}, obs.data());
    benchmark::DoNotOptimize(obs.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FootballWrapperSmm);

void BM_FootballWrapperSimple115v2(benchmark::State& state) {
  Rules r;
  std::vector<float> obs(kSimple115Size);
  for (auto _ : state) {
    r.step();
    write_simple115v2(r.s, obs.data());
    benchmark::DoNotOptimize(obs.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FootballWrapperSimple115v2);

}  // namespace
