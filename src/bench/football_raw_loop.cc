#include "football_raw_loop.h"

#include <memory>
#include <stdexcept>
#include <vector>

#include "seedrl/env/football/actions.h"
#include "seedrl/env/football/data_check.h"
#include "seedrl/env/football/engine_game.h"
#include "seedrl/env/football/football_env.h"
#include "seedrl/env/football/rules.h"
#include "seedrl/util/rng.h"

namespace seedrl::bench {

void run_raw_football_loop(const TrainConfig& config, int envs, std::uint64_t seed, const std::function<void()>& ready,
                           const std::atomic<bool>& stop, std::atomic<std::uint64_t>& steps) {
  using namespace football;
  if (config.env.rfind("football:", 0) != 0)
    throw std::invalid_argument("raw football loop: " + config.env + " is not football:*");
  const FootballConfig c = football_config(config.env.substr(9), config.env_options);
  check_engine_paths(c.paths);
  const Scenario& s = *c.scenario;
  std::vector<std::unique_ptr<EngineGame>> games;
  std::vector<EpisodeRules> rules(static_cast<std::size_t>(envs));
  Rng rng(seed);
  for (int k = 0; k < envs; ++k) {
    games.push_back(std::make_unique<EngineGame>(c.paths));
    games.back()->reset(s, s.left, s.right, static_cast<std::uint32_t>(rng.below(2000000001u)), false);
  }
  ready();
  std::uint64_t done = 0;
  while (!stop.load(std::memory_order_relaxed)) {
    for (int k = 0; k < envs; ++k) {
      EngineGame& g = *games[static_cast<std::size_t>(k)];
      g.act(stalling_rule(kActions[rng.below(kNumActions)].engine, g.waiting_for_game_count(), g.state()));
      g.step();
      ++done;
      const auto o = rules[static_cast<std::size_t>(k)].after_step(s, g.state(), g.waiting_for_game_count());
      if (o.ended_by_rule || o.ended_by_time) {
        g.reset(s, s.left, s.right, static_cast<std::uint32_t>(rng.below(2000000001u)), false);
        rules[static_cast<std::size_t>(k)].reset();
      }
    }
    steps.store(done, std::memory_order_relaxed);
  }
}

}  // namespace seedrl::bench
