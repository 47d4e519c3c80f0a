#include "seedrl/env/synthetic/atari_shaped.h"

#include <cstdint>
#include <cstring>

#include "seedrl/env/registry.h"

namespace seedrl {

AtariShaped::AtariShaped() {
  spec_.name = "synthetic:atari";
  spec_.observation = ArraySpec{{kSide, kSide, kStack}, DType::kUInt8};
  spec_.action = ActionSpec::discrete(kActions);
  spec_.max_episode_steps = kEpisodeSteps;
}

void AtariShaped::reset(std::optional<std::uint64_t> seed, void* obs) {
  if (seed) rng_.reseed(*seed);
  const int p = static_cast<int>(rng_.below(kActions));
  history_.fill(p);
  steps_ = 0;
  write_obs(obs);
}

StepResult AtariShaped::step(const Action& action, void* obs) {
  StepResult r;
  if (action.index == history_[0]) r.reward = 1.f;
  for (int k = kStack - 1; k > 0; --k) history_[k] = history_[k - 1];
  if (r.reward > 0.f || rng_.below(8) == 0) history_[0] = static_cast<int>(rng_.below(kActions));
  r.truncated = ++steps_ >= kEpisodeSteps;
  write_obs(obs);
  return r;
}

void AtariShaped::write_obs(void* obs) const {
  auto* px = static_cast<std::uint8_t*>(obs);
  std::memset(px, 0, static_cast<std::size_t>(kSide) * kSide * kStack);
  for (int k = 0; k < kStack; ++k) {
    const int r0 = block_row(history_[k]), c0 = block_col(history_[k]);
    for (int r = r0; r < r0 + kBlock; ++r)
      for (int c = c0; c < c0 + kBlock; ++c) px[(r * kSide + c) * kStack + k] = 255;
  }
}

void register_synthetic(EnvRegistry& registry) {
  registry.add("synthetic:atari",
               "Atari-shaped throughput stand-in: 84x84x4 uint8 frames, 18 actions, trivial dynamics",
               [](const EnvOptions&) -> EnvPtr { return std::make_unique<AtariShaped>(); });
}

}  // namespace seedrl
