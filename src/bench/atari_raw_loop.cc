#include "atari_raw_loop.h"

#include <memory>
#include <stdexcept>
#include <vector>

#include "seedrl/env/atari/atari_env.h"
#include "seedrl/util/rng.h"

#if SEEDRL_WITH_ALE
#include <ale/ale_interface.hpp>
#endif

namespace seedrl::bench {

void run_raw_atari_loop([[maybe_unused]] const TrainConfig& config, [[maybe_unused]] int envs,
                        [[maybe_unused]] std::uint64_t seed, [[maybe_unused]] const std::function<void()>& ready,
                        [[maybe_unused]] const std::atomic<bool>& stop,
                        [[maybe_unused]] std::atomic<std::uint64_t>& steps) {
#if SEEDRL_WITH_ALE
  if (config.env.rfind("atari:", 0) != 0)
    throw std::invalid_argument("raw ALE loop: " + config.env + " is not atari:*");
  // The envs only load and configure the emulators; the loop bypasses them.
  const atari::AtariConfig c = atari::atari_config(config.env.substr(6), config.env_options);
  std::vector<std::unique_ptr<atari::AtariEnv>> owned;
  std::vector<ale::ALEInterface*> emulators;
  for (int k = 0; k < envs; ++k) {
    owned.push_back(std::make_unique<atari::AtariEnv>(c));
    emulators.push_back(&owned.back()->ale());
    emulators.back()->reset_game();
  }
  ready();
  Rng rng(seed);
  std::uint64_t done = 0;
  while (!stop.load(std::memory_order_relaxed)) {
    for (ale::ALEInterface* e : emulators) {
      const auto a = static_cast<ale::Action>(rng.below(atari::AtariEnv::kNumActions));
      for (int f = 0; f < c.frame_skip; ++f) e->act(a);
      if (e->game_over()) e->reset_game();
      ++done;
    }
    steps.store(done, std::memory_order_relaxed);
  }
#else
  throw std::invalid_argument("raw ALE loop: this seedrl was built without ALE");
#endif
}

}  // namespace seedrl::bench
